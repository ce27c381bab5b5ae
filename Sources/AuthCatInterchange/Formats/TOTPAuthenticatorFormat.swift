import AuthCatCore
import AuthCatEssentials
import Foundation

/// TOTP Authenticator (BinaryBoot's Android app, `com.authenticator.authservice2`).
///
/// Two forms. Its backup file is base64 of AES-256-CBC (PKCS #7 padding, a
/// zero IV) under the SHA-256 of the UTF-8 password; the app uses the fixed
/// password `TotpAuthenticator` when the user sets none, which authcat tries
/// before asking. Inside is a JSON object whose one member's name is the
/// account list as JSON text (its value the backup's time). From a rooted
/// phone, `shared_prefs/TOTP_Authenticator_Preferences.xml` holds the same
/// list in its `STATIC_TOTP_CODES_LIST` string.
///
/// An account is `{"issuer", "name", "key", "base": 16|32|64, "digits",
/// "period"}`, digits and period as numbers or as text; always TOTP with
/// SHA-1, the only kind the app makes.
public enum TOTPAuthenticatorFormat: ImportFormatParser {
    public static let format = ImportFormat.totpAuthenticator

    /// The preference that holds the account list.
    static let listName = "STATIC_TOTP_CODES_LIST"
    /// What the app encrypts a backup with when the user chose no password.
    static let defaultPassword = "TotpAuthenticator"
    /// A key derivation costs one SHA-256: nothing in the file to bound but its size.
    static let maximumFileSize = 64 << 20

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        if BoundedXML.rootName(of: data) == "map" {
            let preferences = try SharedPreferencesXML.read(data, format: format)
            guard let list = preferences.value(listName) else {
                throw ImportError.malformed(format, "it holds no TOTP Authenticator account list (\(listName))")
            }
            return try accounts(list)
        }
        var plaintext = try decrypt(ciphertext(data), context: context)
        defer { plaintext.resetBytes(in: 0..<plaintext.count) }
        return try accounts(listOfBackup(plaintext))
    }

    /// Whether `data` looks like a backup: nothing but base64 of whole AES blocks.
    static func looksLikeBackup(_ data: Data) -> Bool {
        guard let ciphertext = try? ciphertext(data) else { return false }
        return !ciphertext.isEmpty
    }

    private static func ciphertext(_ data: Data) throws -> Data {
        // Line breaks allowed, as Android's base64 writes them by default; nothing else.
        let text = String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace }
        guard data.count <= maximumFileSize, let ciphertext = Data(base64Encoded: text),
            !ciphertext.isEmpty, ciphertext.count % AESCBC.blockSize == 0
        else {
            throw ImportError.malformed(format, "it is neither the app's backup (base64) nor its preferences (XML)")
        }
        return ciphertext
    }

    /// The backup's JSON: opened with the app's own password, else with the user's.
    /// - Throws: `ImportError.wrongPassword` when neither opens it.
    private static func decrypt(_ ciphertext: Data, context: ImportContext) throws -> Data {
        if let plaintext = open(ciphertext, password: SecretBytes(utf8: defaultPassword)) { return plaintext }
        guard let plaintext = open(ciphertext, password: try context.password()) else {
            throw ImportError.wrongPassword(format)
        }
        return plaintext
    }

    /// The plaintext, if `password` gives a key under which the padding
    /// checks and a JSON object comes out (CBC authenticates nothing).
    private static func open(_ ciphertext: Data, password: SecretBytes) -> Data? {
        let iv = Data(count: AESCBC.blockSize)
        guard var plaintext = try? AESCBC.open(ciphertext, key: SHA256.hash(password), iv: iv) else { return nil }
        guard (try? JSONValue.decode(plaintext))?.objectValue != nil else {
            plaintext.resetBytes(in: 0..<plaintext.count)
            return nil
        }
        return plaintext
    }

    /// The member name that holds the list, in a backup's object.
    private static func listOfBackup(_ plaintext: Data) throws -> String {
        let object = try JSONValue.decode(plaintext).objectValue ?? [:]
        guard let list = object.keys.first(where: { $0.hasPrefix("[") }) else {
            throw ImportError.malformed(format, "the backup holds no account list")
        }
        return list
    }

    private static func accounts(_ list: String) throws -> ParsedImport {
        guard let accounts = try JSONValue.parse(Data(list.utf8), format: format).arrayValue else {
            throw ImportError.malformed(format, "its account list is not a JSON list")
        }
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: accounts.count)
        for (index, value) in accounts.enumerated() {
            let position = EntryPosition.entry(index + 1)
            let fields = try? JSONFields(value)
            let label = [fields?.text("issuer"), fields?.text("name")].compactMap { $0 }.filter { !$0.isEmpty }
            try result.read(position, label: label.isEmpty ? nil : label.joined(separator: ":")) {
                try entry(JSONFields(value), position: position)
            }
        }
        return result
    }

    private static func entry(_ fields: JSONFields, position: EntryPosition) throws -> ImportEntry {
        let key = try fields.string("key")
        let otp = OTPParameters(
            kind: .totp, algorithm: .sha1, digits: try fields.looseInt("digits") ?? 6,
            period: try fields.looseInt("period") ?? 30)
        var draft: AccountDraft
        let issuer = try fields.optionalString("issuer") ?? ""
        let name = try fields.optionalString("name") ?? ""
        switch try fields.int("base") {
        case 32:
            draft = try AccountDraft(issuer: issuer, name: name, otp: otp, base32Secret: key)
        case 16:
            draft = AccountDraft(issuer: issuer, name: name, otp: otp, secret: try Base16.decode(key))
        case 64:
            guard let bytes = Data(base64Encoded: key) else { throw EntryProblem.invalid("field 'key' is not base64") }
            draft = AccountDraft(issuer: issuer, name: name, otp: otp, secret: SecretBytes(bytes))
        case let base:
            throw EntryProblem.unsupported("its key is in base \(base); the app writes base 16, 32 or 64")
        }
        return try ImportEntry(position: position, draft: draft)
    }
}

extension JSONFields {
    /// The string at `key`, nil when missing or not a string: for labels in messages.
    fileprivate func text(_ key: String) -> String? {
        (try? optionalString(key)) ?? nil
    }

    /// A whole number written as a number or as text (`"digits": "6"`); nil when missing or null.
    fileprivate func looseInt(_ key: String) throws -> Int? {
        if case .string(let text)? = object[key] {
            guard let value = Int(text) else { throw EntryProblem.invalid("field '\(path)\(key)' is not a number") }
            return value
        }
        return try optionalInt(key)
    }
}
