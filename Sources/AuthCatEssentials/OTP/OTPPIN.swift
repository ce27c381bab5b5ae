/// The rules for the PIN of a Yandex or mOTP account, and for Yandex secrets.
///
/// The PIN is part of every code, so it is as secret as the secret: it is
/// held in `SecretBytes` (its UTF-8 bytes), sealed in the vault, and never
/// quoted in a message.
public enum OTPPIN {
    /// Yandex PINs have 4 to 16 digits and mOTP PINs 4; far longer is a mistake.
    public static let maximumBytes = 64

    /// Checks a PIN read from a person or a file.
    /// - Throws: `OTPPINError` when it is empty, too long, not UTF-8 or holds control characters.
    public static func check(_ pin: SecretBytes) throws {
        guard pin.count > 0 else { throw OTPPINError.empty }
        guard pin.count <= maximumBytes else { throw OTPPINError.tooLong }
        let valid = pin.withUnsafeBytes { bytes -> Bool in
            var decoder = UTF8()
            var iterator = bytes.makeIterator()
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    if scalar.properties.generalCategory == .control { return false }
                case .emptyInput: return true
                case .error: return false
                }
            }
        }
        guard valid else { throw OTPPINError.invalid }
    }

    /// Yandex.Key secrets are 16 bytes; the 26-byte form its apps show adds
    /// a 12-bit checksum (a polynomial remainder) in the last bits.
    public static let yandexSecretLength = 16
    public static let yandexSecretWithChecksumLength = 26

    /// The 16-byte Yandex secret in `secret`: itself, or the first 16 bytes
    /// of the 26-byte form once its checksum is right.
    /// - Throws: `OTPPINError.yandexSecret` for any other length or a wrong checksum.
    public static func yandexSecret(_ secret: SecretBytes) throws -> SecretBytes {
        switch secret.count {
        case yandexSecretLength:
            return secret
        case yandexSecretWithChecksumLength:
            let (checksum, remainder) = secret.withUnsafeBytes { bytes in
                (UInt16(bytes[24] & 0x0f) << 8 | UInt16(bytes[25]), checksumRemainder(bytes, bits: 26 * 8 - 12))
            }
            guard checksum == remainder else { throw OTPPINError.yandexChecksum }
            return secret.withUnsafeBytes { SecretBytes($0.prefix(yandexSecretLength)) }
        default:
            throw OTPPINError.yandexSecretLength(secret.count)
        }
    }

    /// The remainder of the first `bits` bits of `bytes`, read as a
    /// polynomial over GF(2) most significant bit first, divided by
    /// x^12 + x^11 + x^7 + x^6 + x^5 + x^4 + x + 1 (0x18F3).
    private static func checksumRemainder(_ bytes: UnsafeRawBufferPointer, bits: Int) -> UInt16 {
        var remainder: UInt16 = 0
        for index in 0..<bits {
            let bit = UInt16(bytes[index / 8] >> (7 - UInt8(index % 8)) & 1)
            remainder = remainder << 1 | bit
            if remainder & 0x1000 != 0 { remainder ^= 0x18F3 }
        }
        return remainder
    }
}
