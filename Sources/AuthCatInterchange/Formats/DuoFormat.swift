import AuthCatCore
import AuthCatEssentials
import Foundation

/// Duo Mobile's third-party accounts, from a rooted phone (`duokit/accounts.json`):
/// a list of `{"name", "accountType": "OtpAccount", "otpGenerator":
/// {"otpSecret": Base32, "counter"}}`. With a counter, HOTP; without, TOTP;
/// always SHA1, 6 digits, 30 s. Duo keeps no issuer.
public enum DuoFormat: ImportFormatParser {
    public static let format = ImportFormat.duo

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        guard case .array(let accounts) = try JSONValue.parse(data, format: format) else {
            throw ImportError.malformed(format, "the file is not a JSON list")
        }
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: accounts.count)
        for (index, value) in accounts.enumerated() {
            let position = EntryPosition.entry(index + 1)
            let account = try? JSONFields(value)
            try result.read(position, label: (try? account?.optionalString("name")) ?? nil) {
                guard let account else { throw EntryProblem.invalid("the account should be an object") }
                let generator = try account.fields("otpGenerator")
                let counter = try generator.optionalCounter("counter")
                let otp = OTPParameters(kind: counter == nil ? .totp : .hotp, counter: counter ?? 0)
                let draft = try AccountDraft(
                    name: try account.optionalString("name") ?? "", otp: otp,
                    base32Secret: try generator.string("otpSecret"))
                return try ImportEntry(position: position, draft: draft)
            }
        }
        return result
    }
}
