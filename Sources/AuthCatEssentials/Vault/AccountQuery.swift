#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the lookup rule reads of an account: its id, issuer and name. The
/// quick front matches light rows of these three columns, and reads a whole
/// account only for the one it prints.
public protocol AccountNaming {
    var id: UUID { get }
    var issuer: String { get }
    var name: String { get }
}

extension AccountNaming {
    /// `Issuer:name`, or just the name when there is no issuer.
    public var label: String { issuer.isEmpty ? name : "\(issuer):\(name)" }
}

extension Account: AccountNaming {}

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

    /// The accounts the first matching rule names, in the order given.
    ///
    /// One pass over the accounts, each name lowercased once, rather than
    /// one pass per rule: a short query reads every account of the vault.
    public func matches<Named: AccountNaming>(in accounts: [Named]) -> [Named] {
        let needle = text.lowercased()
        if let id = UUID(uuidString: text) {
            let byID = accounts.filter { $0.id == id }
            if !byID.isEmpty { return byID }
        }
        let needleIsPlain = Self.isPlain(needle)
        var exact: [Named] = []
        var whole: [Named] = []
        var part: [Named] = []
        for account in accounts {
            let issuer = account.issuer.lowercased()
            let name = account.name.lowercased()
            if account.label.lowercased() == needle { exact.append(account) }
            if issuer == needle || name == needle {
                whole.append(account)
            } else if Self.contains(issuer, needle, plainNeedle: needleIsPlain)
                        || Self.contains(name, needle, plainNeedle: needleIsPlain) {
                part.append(account)
            }
        }
        if !exact.isEmpty { return exact }
        return whole.isEmpty ? part : whole
    }

    /// Whether `text` contains `needle`, as `String.contains` decides: by
    /// characters, canonically equivalent ones alike. For ASCII without a
    /// carriage return, where every byte is a character of its own (only
    /// CR LF joins two) and equivalence is equality, bytes decide the same,
    /// a hundred times faster than comparing characters.
    private static func contains(_ text: String, _ needle: String, plainNeedle: Bool) -> Bool {
        guard plainNeedle, isPlain(text) else { return text.contains(needle) }
        let haystack = Array(text.utf8)
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty else { return true }
        guard pattern.count <= haystack.count else { return false }
        for start in 0...(haystack.count - pattern.count) where haystack[start] == pattern[0] {
            if haystack[start..<(start + pattern.count)].elementsEqual(pattern) { return true }
        }
        return false
    }

    /// ASCII without a carriage return.
    private static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    }
}
