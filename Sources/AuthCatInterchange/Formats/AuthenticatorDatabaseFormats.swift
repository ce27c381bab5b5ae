import AuthCatCore
import AuthCatEssentials
import Foundation

/// Google Authenticator's database from a rooted phone (`databases/databases`):
/// a SQLite table `accounts(email, secret, counter, type, issuer,
/// original_name)`, `type` 0 for TOTP and 1 for HOTP, the secret Base32; always
/// SHA1, 6 digits, 30 s. `email` is the label, `Issuer:name` or the name.
/// Newer versions seal secrets with the phone's keystore (`isencrypted`),
/// which no file holds: those rows are rejected.
public enum GoogleAuthenticatorDatabaseFormat: ImportFormatParser {
    public static let format = ImportFormat.googleAuthenticatorDatabase

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        let rows = try AuthenticatorDatabase.rows(
            of: data, table: "accounts", columns: ["email", "secret", "counter", "type", "issuer", "isencrypted"],
            format: format)
        var result = ParsedImport(format: format)
        for (index, row) in rows.enumerated() {
            let position = EntryPosition.entry(index + 1)
            try result.read(position, label: row[0].text) {
                guard (row[5].integer ?? 0) == 0 else {
                    throw EntryProblem.unsupported("its secret is sealed by the phone's keystore, which no file holds")
                }
                let issuer = row[4].text ?? ""
                var name = row[0].text ?? ""
                if !issuer.isEmpty, name.hasPrefix(issuer + ":") { name = String(name.dropFirst(issuer.count + 1)) }
                let otp: OTPParameters
                switch row[3].integer ?? 0 {
                case 0: otp = OTPParameters(kind: .totp)
                case 1:
                    let counter = row[2].integer ?? 0
                    guard counter >= 0 else {
                        throw EntryProblem.invalid("its counter is negative")
                    }
                    otp = OTPParameters(kind: .hotp, counter: UInt64(counter))
                default: throw EntryProblem.unsupported("its OTP type is neither TOTP (0) nor HOTP (1)")
                }
                guard let secret = row[1].text else { throw EntryProblem.invalid("its secret is not text") }
                let draft = try AccountDraft(issuer: issuer, name: name, otp: otp, base32Secret: secret)
                return try ImportEntry(position: position, draft: draft)
            }
        }
        return result
    }
}

/// Microsoft Authenticator's database from a rooted phone
/// (`databases/PhoneFactor`): a SQLite table `accounts(name, username,
/// oath_secret_key, account_type)`. `account_type` 0 is a TOTP account of
/// 6 digits, 1 a Microsoft account's 8-digit one; both SHA1 and 30 s, the
/// secret Base32. Other types (work accounts signed in with push) have no
/// OTP secret and are rejected.
public enum MicrosoftAuthenticatorFormat: ImportFormatParser {
    public static let format = ImportFormat.microsoftAuthenticator

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        let rows = try AuthenticatorDatabase.rows(
            of: data, table: "accounts", columns: ["name", "username", "oath_secret_key", "account_type"],
            format: format)
        var result = ParsedImport(format: format)
        for (index, row) in rows.enumerated() {
            let position = EntryPosition.entry(index + 1)
            let label = [row[0].text, row[1].text].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ":")
            try result.read(position, label: label.isEmpty ? nil : label) {
                let digits: Int
                switch row[3].integer ?? -1 {
                case 0: digits = 6
                case 1: digits = 8
                default: throw EntryProblem.unsupported("it is not a one-time-code account (a push sign-in?)")
                }
                guard let secret = row[2].text, !secret.isEmpty else { throw EntryProblem.invalid("it has no secret") }
                let draft = try AccountDraft(
                    issuer: row[0].text ?? "", name: row[1].text ?? "", otp: OTPParameters(kind: .totp, digits: digits),
                    base32Secret: secret)
                return try ImportEntry(position: position, draft: draft)
            }
        }
        return result
    }
}

/// What the two databases share: opening the bytes, reading one table.
enum AuthenticatorDatabase {
    /// The rows of `table`, at most `ParsedImport.maximumEntries`.
    static func rows(
        of data: Data, table: String, columns: [String], format: ImportFormat
    ) throws -> [[SQLiteSnapshot.Value]] {
        do {
            let database = try SQLiteSnapshot(data)
            return try database.rows(of: table, columns: columns, limit: ParsedImport.maximumEntries)
        } catch let failure as SQLiteSnapshot.Failure {
            throw ImportError.malformed(format, failure.description)
        }
    }

    /// Which app's database `data` is, by its tables' and columns' names.
    static func detect(_ data: Data) -> ImportFormat? {
        guard let database = try? SQLiteSnapshot(data), let tables = try? database.tableNames(),
            tables.contains("accounts"), let columns = try? database.columnNames(of: "accounts")
        else { return nil }
        if columns.isSuperset(of: ["email", "secret"]) { return .googleAuthenticatorDatabase }
        if columns.isSuperset(of: ["oath_secret_key", "account_type"]) { return .microsoftAuthenticator }
        return nil
    }
}
