#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// AES-256-CBC with PKCS#7 padding, which Bitwarden's exports (under an
/// HMAC) and Authenticator Pro's legacy backups (under none) use. authcat
/// seals nothing of its own with it; it reads other apps' files, and tests
/// write such files.
public enum AESCBC {
    public static let keySize = Nettle.aes256KeySize
    public static let blockSize = Nettle.aesBlockSize

    /// The plaintext of `ciphertext`, its padding removed; the caller wipes it when done.
    /// - Throws: `CryptoError.invalidInput` for a key or IV of the wrong size
    ///   or a ciphertext that is not whole blocks; `CryptoError.authenticationFailed`
    ///   when the padding is not PKCS#7 (a wrong key, or altered data: with
    ///   no MAC, nothing better can be told).
    public static func open(_ ciphertext: Data, key: SecretBytes, iv: Data) throws -> Data {
        try checkSizes(key: key, iv: iv)
        guard !ciphertext.isEmpty, ciphertext.count % blockSize == 0 else {
            throw CryptoError.invalidInput("an AES-CBC ciphertext is whole blocks of \(blockSize) bytes")
        }
        var plaintext = Data(count: ciphertext.count)
        plaintext.withUnsafeMutableBytes { output in
            key.withUnsafeBytes { key in
                iv.withUnsafeBytes { iv in
                    ciphertext.withUnsafeBytes {
                        Nettle.aes256CBC(.decrypt, into: output, input: $0, key: key, iv: iv)
                    }
                }
            }
        }
        let padding = Int(plaintext[plaintext.count - 1])
        guard (1...blockSize).contains(padding), plaintext.suffix(padding).allSatisfy({ $0 == padding }) else {
            plaintext.resetBytes(in: 0..<plaintext.count)
            throw CryptoError.authenticationFailed
        }
        plaintext.resetBytes(in: (plaintext.count - padding)..<plaintext.count)
        plaintext.removeLast(padding)
        return plaintext
    }

    /// `plaintext` padded and encrypted under `key` and `iv`. For tests that
    /// write other apps' files: no program code seals with an IV it was handed.
    package static func seal(_ plaintext: Data, key: SecretBytes, iv: Data) throws -> Data {
        try checkSizes(key: key, iv: iv)
        let padding = blockSize - plaintext.count % blockSize
        let padded = plaintext + Data(repeating: UInt8(padding), count: padding)
        var ciphertext = Data(count: padded.count)
        ciphertext.withUnsafeMutableBytes { output in
            key.withUnsafeBytes { key in
                iv.withUnsafeBytes { iv in
                    padded.withUnsafeBytes { Nettle.aes256CBC(.encrypt, into: output, input: $0, key: key, iv: iv) }
                }
            }
        }
        return ciphertext
    }

    private static func checkSizes(key: SecretBytes, iv: Data) throws {
        guard key.count == keySize else { throw CryptoError.invalidInput("an AES-256 key has \(keySize) bytes") }
        guard iv.count == blockSize else { throw CryptoError.invalidInput("an AES-CBC IV has \(blockSize) bytes") }
    }
}
