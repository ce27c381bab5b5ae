import Crypto

extension OTPGenerator {
    /// RFC 4226 section 5.3: HMAC of the big-endian counter, then dynamic
    /// truncation to a 31-bit number.
    static func truncatedHMAC(secret: SecretBytes, counter: UInt64, algorithm: OTPAlgorithm) -> UInt32 {
        switch algorithm {
        case .sha1: truncatedHMAC(Insecure.SHA1.self, secret: secret, counter: counter)
        case .sha256: truncatedHMAC(SHA256.self, secret: secret, counter: counter)
        case .sha512: truncatedHMAC(SHA512.self, secret: secret, counter: counter)
        // Only mOTP uses MD5, and not through an HMAC: `validate` and the
        // public functions refuse it, so this is never reached with a real account.
        case .md5: truncatedHMAC(Insecure.MD5.self, secret: secret, counter: counter)
        }
    }

    private static func truncatedHMAC<Hash: HashFunction>(_: Hash.Type, secret: SecretBytes, counter: UInt64) -> UInt32
    {
        let mac = secret.withUnsafeBytes { key in
            withUnsafeBytes(of: counter.bigEndian) { message in
                HMAC<Hash>.authenticationCode(for: message, using: SymmetricKey(data: key))
            }
        }
        return mac.withUnsafeBytes { bytes in
            // Every SHA digest is at least 20 bytes and the offset at most 15,
            // so the four bytes read are inside it; the bound only matters for
            // MD5's 16 bytes, which never reach here (see above).
            let offset = min(Int(bytes[bytes.count - 1] & 0x0f), bytes.count - 4)
            return UInt32(bytes[offset] & 0x7f) << 24 | UInt32(bytes[offset + 1]) << 16
                | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
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
