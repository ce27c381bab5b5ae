#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a user names an account on the command line: its id, then its exact
/// `issuer:name` label, then its exact issuer or exact name, then any part of
/// its issuer or name. The first rule that matches anything decides, so
/// `tiny` names the issuer Tiny even when Tiny2 exists; case is ignored
/// throughout. The quick front and the full program both ask here.
public struct AccountQuery: Sendable {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    public func matches(in accounts: [Account]) -> [Account] {
        let needle = text.lowercased()
        if let id = UUID(uuidString: text) {
            let byID = accounts.filter { $0.id == id }
            if !byID.isEmpty { return byID }
        }
        let exact = accounts.filter { $0.label.lowercased() == needle }
        if !exact.isEmpty { return exact }
        let whole = accounts.filter { $0.issuer.lowercased() == needle || $0.name.lowercased() == needle }
        if !whole.isEmpty { return whole }
        return accounts.filter { $0.issuer.lowercased().contains(needle) || $0.name.lowercased().contains(needle) }
    }
}
