import AuthCatCore
import AuthCatEssentials
import Foundation

/// A backup of Stratum, formerly Authenticator Pro: its JSON backup
/// `{"Authenticators": [{"Type", "Issuer", "Username", "Secret", "Algorithm",
/// "Digits", "Period", "Counter"}], "Categories": [{"Id", "Name"}],
/// "AuthenticatorCategories": [{"CategoryId", "AuthenticatorSecret"}]}`,
/// the same encrypted (`StratumFormat+Decryption.swift`), or its HTML export,
/// whose links are `otpauth://` URIs. Categories become tags. `Type` is 1
/// HOTP, 2 TOTP, 3 mOTP, 4 Steam, 5 Yandex; `Algorithm` 0 SHA-1, 1 SHA-256,
/// 2 SHA-512. Its URI-list export is plain `otpauth` lines.
public enum StratumFormat: ImportFormatParser {
    public static let format = ImportFormat.stratum

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        if let sealed = try Sealed(data) { return try parse(backup: sealed.open(context: context)) }
        if FormatDetector.startsLikeJSON(data) { return try parse(backup: JSONValue.parse(data, format: format)) }
        return try parseHTML(data)
    }

    static func parse(backup: JSONValue) throws -> ParsedImport {
        guard let document = try? JSONFields(backup), case .array(let list)? = document.object["Authenticators"] else {
            throw ImportError.malformed(format, "it has no 'Authenticators' list")
        }
        let tags = try categories(document)
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: list.count)
        for (index, value) in list.enumerated() {
            let position = EntryPosition.entry(index + 1)
            try result.read(position, label: label(of: value)) { try entry(value, tags: tags, position: position) }
        }
        return result
    }

    static func entry(_ value: JSONValue, tags: [String: [String]], position: EntryPosition) throws -> ImportEntry {
        let entry = try JSONFields(value)
        let kind: OTPKind
        switch try entry.int("Type") {
        case 1: kind = .hotp
        case 2: kind = .totp
        case 4: kind = .steam
        case let type:
            let name = [3: "mOTP", 5: "Yandex"][type] ?? "\(type)"
            throw EntryProblem.unsupportedType(name, thisFormatReads: "TOTP, HOTP and Steam")
        }
        let algorithms: [Int: OTPAlgorithm] = [0: .sha1, 1: .sha256, 2: .sha512]
        guard let algorithm = algorithms[try entry.optionalInt("Algorithm") ?? 0] else {
            throw EntryProblem.unsupported("its algorithm is not supported (only SHA1, SHA256 and SHA512)")
        }
        var otp = OTPParameters(kind: kind, algorithm: algorithm)
        if kind != .steam { otp.digits = try entry.optionalInt("Digits") ?? 6 }
        if kind == .hotp {
            otp.counter = try entry.optionalCounter("Counter") ?? 0
        } else {
            otp.period = try entry.optionalInt("Period") ?? 30
        }
        let secret = try entry.string("Secret")
        let draft = try AccountDraft(
            issuer: try entry.optionalString("Issuer") ?? "", name: try entry.optionalString("Username") ?? "",
            otp: otp, tags: Account.normalizedTags(tags[secret] ?? []), base32Secret: secret)
        return try ImportEntry(position: position, draft: draft)
    }

    /// Category names by the secret of the authenticators they hold.
    private static func categories(_ document: JSONFields) throws -> [String: [String]] {
        guard let categories = try? document.array("Categories"),
            let links = try? document.array("AuthenticatorCategories")
        else {
            throw ImportError.malformed(format, "its 'Categories' or 'AuthenticatorCategories' is not a list")
        }
        var names: [String: String] = [:]
        for case let category? in categories.map({ try? JSONFields($0) }) {
            if let id = try? category.string("Id"), let name = try? category.string("Name") { names[id] = name }
        }
        var tags: [String: [String]] = [:]
        for case let link? in links.map({ try? JSONFields($0) }) {
            guard let id = try? link.string("CategoryId"), let secret = try? link.string("AuthenticatorSecret"),
                let name = names[id]
            else { continue }
            tags[secret, default: []].append(name)
        }
        return tags
    }

    private static func label(of value: JSONValue) -> String? {
        guard let entry = try? JSONFields(value) else { return nil }
        let parts = ["Issuer", "Username"].compactMap { try? entry.optionalString($0) }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: ":")
    }
}
