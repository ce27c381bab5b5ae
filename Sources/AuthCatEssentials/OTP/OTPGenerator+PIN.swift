/// The two kinds whose codes mix in a PIN: Yandex.Key and mOTP.
///
/// Both are described only by their apps; these follow what Aegis computes,
/// and `Tests/AuthCatEssentialsTests/Vectors/yandex.txt` and `motp.txt` hold the
/// published vectors they are checked against.
extension OTPGenerator {
    /// 26^8: eight letters hold a number below this.
    private static let yandexModulus: UInt64 = 208_827_064_576

    /// Yandex.Key: the HMAC key is SHA-256 of the PIN's UTF-8 bytes followed
    /// by the secret, without its first byte when that byte is zero; the code
    /// is HMAC-SHA-256 of the big-endian time step, truncated to 63 bits at
    /// RFC 4226's offset, modulo 26^8, written as eight lowercase letters,
    /// most significant first.
    static func yandex(secret: SecretBytes, pin: SecretBytes, step: Int64) throws -> String {
        let mac = try yandexKey(secret: secret, pin: pin).withUnsafeBytes { key in
            try withUnsafeBytes(of: UInt64(bitPattern: step).bigEndian) { message in
                try Sodium.hmacSHA256(key: key, message: message)
            }
        }
        let value = mac.withUnsafeBytes { bytes in
            // A SHA-256 MAC has 32 bytes and the offset is at most 15, so the
            // eight bytes read are always inside it.
            let offset = Int(bytes[bytes.count - 1] & 0x0f)
            var value = UInt64(bytes[offset] & 0x7f)
            for index in offset + 1..<offset + 8 { value = value << 8 | UInt64(bytes[index]) }
            return value
        }
        return String(unsafeUninitializedCapacity: 8) { output in
            var rest = value % yandexModulus
            for index in stride(from: 7, through: 0, by: -1) {
                output[index] = UInt8(ascii: "a") + UInt8(rest % 26)
                rest /= 26
            }
            return 8
        }
    }

    /// SHA-256 of the PIN and the secret, without a leading zero byte, hashed
    /// by libsodium straight into zeroing storage: no copy of the key is left
    /// behind in memory (a digest returned as a value would be one).
    private static func yandexKey(secret: SecretBytes, pin: SecretBytes) throws -> SecretBytes {
        let digest = SecretBytes(count: Sodium.sha256Size)
        try digest.withUnsafeMutableBytes { output in
            try pin.withUnsafeBytes { pin in
                try secret.withUnsafeBytes { secret in try Sodium.sha256(into: output, parts: [pin, secret]) }
            }
        }
        let leadingZero = digest.withUnsafeBytes { $0.first == 0 }
        guard leadingZero else { return digest }
        return digest.withUnsafeBytes { SecretBytes($0.dropFirst()) }
    }

    /// mOTP: MD5 of the time step in decimal, the secret in lowercase hex and
    /// the PIN, all as text; the code is the first `digits` characters of the
    /// digest in lowercase hex.
    static func motp(secret: SecretBytes, pin: SecretBytes, step: Int64, digits: Int) -> String {
        let stepText = Array(String(step).utf8)
        // The message holds the secret, so it is built in zeroing storage.
        let message = SecretBytes(count: stepText.count + 2 * secret.count + pin.count)
        message.withUnsafeMutableBytes { output in
            var written = 0
            func append(_ byte: UInt8) {
                output[written] = byte
                written += 1
            }
            stepText.forEach(append)
            secret.withUnsafeBytes { bytes in
                for byte in bytes {
                    append(Base16.lowercaseDigits[Int(byte >> 4)])
                    append(Base16.lowercaseDigits[Int(byte & 0x0f)])
                }
            }
            pin.withUnsafeBytes { $0.forEach(append) }
        }
        let digest = message.withUnsafeBytes { Nettle.md5($0) }
        return digest.withUnsafeBytes { bytes in
            String(unsafeUninitializedCapacity: digits) { output in
                // `validate` keeps mOTP at 6 characters, well inside MD5's 32 hex digits.
                for index in 0..<min(digits, 2 * bytes.count) {
                    let byte = bytes[index / 2]
                    output[index] = Base16.lowercaseDigits[Int(index % 2 == 0 ? byte >> 4 : byte & 0x0f)]
                }
                return min(digits, 2 * bytes.count)
            }
        }
    }
}
