import AuthCatCore
import AuthCatEssentials
import Foundation

/// The Battle.net Authenticator of Blizzard's Battle.net app, from a rooted
/// phone: shared preferences whose `com.blizzard.messenger.AUTHENTICATOR_DEVICE_SECRET`
/// and `…AUTHENTICATOR_SERIAL` are "masked" (their
/// `…CREDENTIALS_ENCRYPTION_TYPE` is `MASK`): hex bytes XORed with a fixed
/// key that every copy of the app shares, giving ASCII: the secret as hex,
/// the serial (`US-1234-…`) as text. One account: TOTP, SHA1, 8 digits, 30 s,
/// issuer Battle.net, named by the serial.
public enum BattleNetFormat: ImportFormatParser {
    public static let format = ImportFormat.battleNet

    static let secretName = "com.blizzard.messenger.AUTHENTICATOR_DEVICE_SECRET"
    static let serialName = "com.blizzard.messenger.AUTHENTICATOR_SERIAL"

    /// The app's fixed mask (a published constant of the format, not a secret of anyone's).
    private static let mask =
        Hex.decode(
            "398e27fc50276a656065b0e525f4c06c04c61075286b8e7aeda59da9813b5dd6c80d2fb38068773fa59ba47c17ca6c6479015c1d5b8b8f6b9a"
        ).map([UInt8].init) ?? []

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        let preferences = try SharedPreferencesXML.read(data, format: format)
        guard let masked = preferences.value(secretName) else {
            throw ImportError.malformed(format, "it has no authenticator secret")
        }
        var result = ParsedImport(format: format)
        let serial = preferences.value(serialName).flatMap { try? unmask($0) }.map {
            String(decoding: $0, as: UTF8.self)
        }
        try result.read(.entry(1), label: serial.map { "Battle.net:\($0)" }) {
            guard var secretHex = try? unmask(masked) else {
                throw EntryProblem.invalid("its masked secret is not hex of the mask's length")
            }
            defer { secretHex.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
            guard let secret = Hex.decode(String(decoding: secretHex, as: UTF8.self)), !secret.isEmpty else {
                throw EntryProblem.invalid("its unmasked secret is not hex")
            }
            let draft = AccountDraft(
                issuer: "Battle.net", name: serial ?? "", otp: OTPParameters(kind: .totp, digits: 8),
                secret: SecretBytes(secret))
            return try ImportEntry(position: .entry(1), draft: draft)
        }
        return result
    }

    /// The bytes of masked hex `text`, XORed with the mask.
    private static func unmask(_ text: String) throws -> [UInt8] {
        guard let bytes = Hex.decode(text), bytes.count <= mask.count else {
            throw EntryProblem.invalid("not masked hex")
        }
        return zip(bytes, mask).map { $0 ^ $1 }
    }
}
