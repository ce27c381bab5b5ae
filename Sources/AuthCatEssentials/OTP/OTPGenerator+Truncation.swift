extension OTPGenerator {
    /// RFC 4226 section 5.3: HMAC of the big-endian counter, then dynamic
    /// truncation to a 31-bit number.
    static func truncatedHMAC(secret: SecretBytes, counter: UInt64, algorithm: OTPAlgorithm) -> UInt32 {
        var mac = secret.withUnsafeBytes { key in
            withUnsafeBytes(of: counter.bigEndian) { Nettle.hmac(hash(algorithm), key: key, message: $0) }
        }
        defer { Sodium.wipe(&mac) }
        // Every SHA digest is at least 20 bytes and the offset at most 15,
        // so the four bytes read are inside it; the bound only matters for
        // MD5's 16 bytes, which never reach here (see `hash`).
        let offset = min(Int(mac[mac.count - 1] & 0x0f), mac.count - 4)
        return UInt32(mac[offset] & 0x7f) << 24 | UInt32(mac[offset + 1]) << 16 | UInt32(mac[offset + 2]) << 8
            | UInt32(mac[offset + 3])
    }

    private static func hash(_ algorithm: OTPAlgorithm) -> Nettle.Hash {
        switch algorithm {
        case .sha1: .sha1
        case .sha256: .sha256
        case .sha512: .sha512
        // Only mOTP uses MD5, and not through an HMAC: `validate` and the
        // public functions refuse it, so this is never reached with a real account.
        case .md5: .md5
        }
    }

    /// The last `digits` decimal digits of `value`, with leading zeros.
    ///
    /// A 31-bit value has at most 10 digits, so a 10-digit code is the whole
    /// value, zero-padded.
    static func decimal(_ value: UInt32, digits: Int) -> String {
        String(unsafeUninitializedCapacity: digits) { output in
            var rest = value
            for index in stride(from: digits - 1, through: 0, by: -1) {
                output[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            return digits
        }
    }

    private static let steamSymbols = Array(steamAlphabet.utf8)

    /// Five Steam Guard characters, least significant first.
    static func steam(_ value: UInt32) -> String {
        let alphabet = steamSymbols
        return String(unsafeUninitializedCapacity: OTPParameters.steamDigits) { output in
            var rest = value
            for index in 0..<OTPParameters.steamDigits {
                output[index] = alphabet[Int(rest % UInt32(alphabet.count))]
                rest /= UInt32(alphabet.count)
            }
            return OTPParameters.steamDigits
        }
    }
}
