import AuthCatCore
import AuthCatEssentials
import Foundation

/// Steam Guard accounts from Steam Desktop Authenticator (SDA) and the files
/// like its `.maFile`: JSON with the account's `shared_secret` (base64, the
/// key of its codes) and `account_name`, besides secrets authcat leaves
/// alone (`identity_secret`, `revocation_code`, the session). Read are:
///
/// - one `.maFile`, plain;
/// - `{"accounts": {id: maFile…}}`, as the Steam app keeps them;
/// - SDA's `manifest.json`, `{"encrypted": bool, "entries": [{"filename",
///   "encryption_iv", "encryption_salt"}]}`, with the `.maFile`s it names
///   beside it (`ImportContext.companion`);
/// - one encrypted `.maFile` with its `manifest.json` beside it.
///
/// SDA encrypts each file on its own: PBKDF2-HMAC-SHA1 of the password
/// with the entry's salt, 50,000 iterations, gives an AES-256 key; the
/// file is the base64 of the maFile's JSON in AES-256-CBC (PKCS #7) with the
/// entry's IV. See `SteamFormat+Decryption.swift`.
public enum SteamFormat: ImportFormatParser {
    public static let format = ImportFormat.steam

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        guard let document = try? JSONFields(JSONValue.parse(data, format: format)) else {
            return try parseEncryptedFile(data, context: context)
        }
        if document.has("entries") { return try parseManifest(document, context: context) }
        var result = ParsedImport(format: format)
        if document.has("shared_secret") {
            try result.read(.entry(1), label: label(document)) { try entry(document, position: .entry(1)) }
            return result
        }
        guard case .object(let accounts)? = document.object["accounts"] else {
            throw ImportError.malformed(format, "it has no 'shared_secret', 'accounts' or manifest 'entries'")
        }
        try result.checkRoom(forEntries: accounts.count)
        // JSON objects keep no order; the account ids give a stable one.
        for (index, key) in accounts.keys.sorted().enumerated() {
            let position = EntryPosition.entry(index + 1)
            let account = try? JSONFields(accounts[key] ?? .null)
            try result.read(position, label: account.flatMap(label)) {
                guard let account else { throw EntryProblem.invalid("the account should be an object") }
                return try entry(account, position: position)
            }
        }
        return result
    }

    /// One maFile: a Steam account of issuer Steam named by `account_name`.
    static func entry(_ maFile: JSONFields, position: EntryPosition) throws -> ImportEntry {
        guard let secret = Data(base64Encoded: try maFile.string("shared_secret")), !secret.isEmpty else {
            throw EntryProblem.invalid("field 'shared_secret' is not base64")
        }
        var bytes = secret
        defer { bytes.resetBytes(in: 0..<bytes.count) }
        let draft = AccountDraft(
            issuer: "Steam", name: try maFile.optionalString("account_name") ?? "",
            otp: OTPParameters(kind: .steam), secret: SecretBytes(bytes))
        return try ImportEntry(position: position, draft: draft)
    }

    /// The account a `steam://SECRET` URI holds (as Bitwarden and Proton
    /// Authenticator write a Steam code), or nil for any other text.
    static func draft(fromURI uri: String, issuer: String, name: String) throws -> AccountDraft? {
        let scheme = "steam://"
        guard uri.lowercased().hasPrefix(scheme) else { return nil }
        return try AccountDraft(
            issuer: issuer, name: name, otp: OTPParameters(kind: .steam),
            base32Secret: String(uri.dropFirst(scheme.count)))
    }

    static func label(_ maFile: JSONFields) -> String? {
        (try? maFile.optionalString("account_name")).flatMap { $0 }.map { "Steam:\($0)" }
    }
}
