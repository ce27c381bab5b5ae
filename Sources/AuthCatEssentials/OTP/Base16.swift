/// Hexadecimal secrets: mOTP's "init secret" is written this way, not in Base32.
///
/// Decoding forgives case, spaces, dashes and line breaks, like `Base32`.
public enum Base16 {
    static let lowercaseDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Decodes `text` straight into zeroing storage.
    /// - Throws: `Base16Error` naming the first problem, never quoting the text.
    public static func decode(_ text: String) throws -> SecretBytes {
        var digits = 0
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if value(of: scalar) != nil {
                digits += 1
            } else if !isIgnorable(scalar) {
                throw Base16Error.invalidCharacter(position: offset + 1)
            }
        }
        guard digits > 0 else { throw Base16Error.empty }
        guard digits % 2 == 0 else { throw Base16Error.oddLength(digits) }
        let secret = SecretBytes(count: digits / 2)
        secret.withUnsafeMutableBytes { output in
            var index = 0
            for scalar in text.unicodeScalars {
                guard let nibble = value(of: scalar) else { continue }
                if index % 2 == 0 {
                    output[index / 2] = nibble << 4
                } else {
                    output[index / 2] |= nibble
                }
                index += 1
            }
        }
        return secret
    }

    /// Lowercase hex of `secret`. The result holds the secret: keep it out of argv, logs and errors.
    public static func encode(_ secret: SecretBytes) -> String {
        secret.withUnsafeBytes { bytes in
            String(unsafeUninitializedCapacity: bytes.count * 2) { output in
                for (index, byte) in bytes.enumerated() {
                    output[2 * index] = lowercaseDigits[Int(byte >> 4)]
                    output[2 * index + 1] = lowercaseDigits[Int(byte & 0x0f)]
                }
                return bytes.count * 2
            }
        }
    }

    private static func value(of scalar: Unicode.Scalar) -> UInt8? {
        switch scalar {
        case "0"..."9": UInt8(scalar.value - 48)
        case "a"..."f": UInt8(scalar.value - 97 + 10)
        case "A"..."F": UInt8(scalar.value - 65 + 10)
        default: nil
        }
    }

    private static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        [" ", "-", "\t", "\n", "\r"].contains(scalar)
    }
}
