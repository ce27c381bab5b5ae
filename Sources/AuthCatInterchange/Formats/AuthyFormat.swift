import AuthCatCore
import AuthCatEssentials
import Foundation

/// Authy's tokens from a rooted phone: the shared preferences
/// `com.authy.storage.tokens.authenticator.xml` (and `….authy.xml`), whose
/// `<string>` of the same name plus `.key` holds a JSON list of tokens
/// `{"name", "originalName", "originalIssuer", "accountType", "digits", secret}`.
/// The secret is one of:
///
/// - `decryptedSecret`: Base32 text;
/// - `encryptedSecret`: that text encrypted with the backup password:
///   AES-256-CBC (PKCS #7) with a zero IV, under PBKDF2-HMAC-SHA1 of the
///   password with the token's `salt` (its UTF-8 bytes) and 1,000 iterations;
/// - `secretSeed`: hex, Authy's own tokens, with 10-second codes.
///
/// Authy keeps neither the algorithm nor the period of other tokens: SHA1 and 30 seconds.
public enum AuthyFormat: ImportFormatParser {
    public static let format = ImportFormat.authy

    static let preferenceNames = [
        "com.authy.storage.tokens.authenticator.key", "com.authy.storage.tokens.authy.key",
    ]
    static let iterations: UInt64 = 1000
    /// Each encrypted token costs a PBKDF2: this many take a few seconds.
    static let maximumEncryptedTokens = 2000

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        let preferences = try SharedPreferencesXML.read(data, format: format)
        var tokens: [JSONValue] = []
        for name in preferenceNames {
            guard let text = preferences.value(name) else { continue }
            guard let list = try? JSONValue.decode(Data(text.utf8)).arrayValue else {
                throw ImportError.malformed(format, "its '\(name)' is not a JSON list")
            }
            tokens += list
        }
        guard preferenceNames.contains(where: { preferences.value($0) != nil }) else {
            throw ImportError.malformed(format, "it holds no Authy token list")
        }
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: tokens.count)
        let encrypted = tokens.filter { $0.objectValue?["encryptedSecret"] != nil }.count
        guard encrypted <= maximumEncryptedTokens else {
            throw ImportError.malformed(
                format, "it holds more than \(maximumEncryptedTokens) encrypted tokens, the most authcat reads")
        }
        let password = encrypted > 0 ? try context.password() : nil
        for (index, value) in tokens.enumerated() {
            let position = EntryPosition.entry(index + 1)
            let token = try? JSONFields(value)
            // Decrypted outside `read`, so that a wrong password stops the import rather than rejecting an entry.
            let secret = try token.flatMap { try decryptedSecret($0, password: password) }
            try result.read(position, label: token.map { names($0) }.map { "\($0.issuer):\($0.name)" }) {
                guard let token else { throw EntryProblem.invalid("the token should be an object") }
                return try entry(token, decrypted: secret, position: position)
            }
        }
        return result
    }

    private static func entry(_ token: JSONFields, decrypted: String?, position: EntryPosition) throws -> ImportEntry {
        let (issuer, name) = names(token)
        let digits = try token.int("digits")
        if let seed = try token.optionalString("secretSeed") {
            guard let secret = Hex.decode(seed), !secret.isEmpty else {
                throw EntryProblem.invalid("field 'secretSeed' is not hex")
            }
            let otp = OTPParameters(kind: .totp, digits: digits, period: 10)
            return try ImportEntry(
                position: position,
                draft: AccountDraft(issuer: issuer, name: name, otp: otp, secret: SecretBytes(secret)))
        }
        guard let text = try decrypted ?? token.optionalString("decryptedSecret") else {
            throw EntryProblem.invalid("it has no secret")
        }
        let otp = OTPParameters(kind: .totp, digits: digits)
        return try ImportEntry(
            position: position, draft: AccountDraft(issuer: issuer, name: name, otp: otp, base32Secret: text))
    }

    /// The Base32 text of an `encryptedSecret`, nil for a token without one.
    /// - Throws: `ImportError.wrongPassword` when it does not decrypt to Base32 text.
    private static func decryptedSecret(_ token: JSONFields, password: SecretBytes?) throws -> String? {
        guard let password, let encrypted = try? token.optionalString("encryptedSecret") else { return nil }
        guard let ciphertext = Data(base64Encoded: encrypted), let salt = try? token.string("salt"), !salt.isEmpty
        else {
            return nil
        }
        let key = try PBKDF2.deriveKey(password: password, salt: Data(salt.utf8), iterations: iterations, hash: .sha1)
        do {
            var plaintext = try AESCBC.open(ciphertext, key: key, iv: Data(count: AESCBC.blockSize))
            defer { plaintext.resetBytes(in: 0..<plaintext.count) }
            // CBC authenticates nothing: padding that checks by chance under a wrong key leaves no Base32.
            guard let text = String(data: plaintext, encoding: .utf8), (try? Base32.decode(text)) != nil else {
                throw ImportError.wrongPassword(format)
            }
            return text
        } catch is CryptoError {
            throw ImportError.wrongPassword(format)
        }
    }

    /// The issuer from `originalIssuer`, else the part of `originalName`
    /// before `:`, else the part of `name` before ` - `, else the account
    /// type; the name is `name` without that issuer. Authy's own tokens
    /// have only a name, which names the service.
    static func names(_ token: JSONFields) -> (issuer: String, name: String) {
        func field(_ key: String) -> String? { (try? token.optionalString(key)) ?? nil }
        var name = field("name") ?? ""
        if token.has("secretSeed") { return (name, "") }
        let issuer: String
        var separator = ""
        if let original = field("originalIssuer") {
            issuer = original
        } else if let original = field("originalName"), let colon = original.firstIndex(of: ":") {
            issuer = String(original[..<colon])
            separator = ":"
        } else if let dash = name.range(of: " - ") {
            issuer = String(name[..<dash.lowerBound])
            separator = " - "
        } else {
            let type = field("accountType") ?? ""
            issuer = type.prefix(1).uppercased() + type.dropFirst()
        }
        if !issuer.isEmpty { name = name.replacingOccurrences(of: issuer + separator, with: "") }
        if name.hasPrefix(": ") { name = String(name.dropFirst(2)) }
        return (issuer, name)
    }
}
