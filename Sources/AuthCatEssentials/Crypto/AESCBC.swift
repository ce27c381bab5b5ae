#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// AES-256-CBC with PKCS #7 padding, which Steam Desktop Authenticator,
/// Authy and TOTP Authenticator encrypt their backups with. It authenticates
/// nothing: a wrong key shows only as padding that does not check, and even
/// that passes by chance about once in 256 tries, so a caller checks that
/// what it decrypted parses before believing it.
public enum AESCBC {
    public static let keySize = Nettle.aes256KeySize
    public static let blockSize = Nettle.aesBlockSize

    /// The plaintext of `ciphertext`, padding removed; the caller wipes it when done.
    /// - Throws: `CryptoError.invalidInput` for a key or IV of the wrong size
    ///   or a ciphertext that is not whole blocks; `.authenticationFailed`
    ///   when the padding does not check (a wrong key, or altered data).
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
                        Nettle.aes256CBCDecrypt(into: output, ciphertext: $0, key: key, iv: iv)
                    }
                }
            }
        }
        guard let padding = plaintext.last, (1...blockSize).contains(Int(padding)),
            plaintext.suffix(Int(padding)).allSatisfy({ $0 == padding })
        else {
            plaintext.resetBytes(in: 0..<plaintext.count)
            throw CryptoError.authenticationFailed
        }
        let length = plaintext.count - Int(padding)
        plaintext.resetBytes(in: length..<plaintext.count)
        return plaintext.prefix(length)
    }

    /// `plaintext` padded and encrypted under `key` and `iv`, for tests that
    /// write other apps' files.
    package static func seal(_ plaintext: Data, key: SecretBytes, iv: Data) throws -> Data {
        try checkSizes(key: key, iv: iv)
        let padding = blockSize - plaintext.count % blockSize
        let padded = plaintext + Data(repeating: UInt8(padding), count: padding)
        var ciphertext = Data(count: padded.count)
        ciphertext.withUnsafeMutableBytes { output in
            key.withUnsafeBytes { key in
                iv.withUnsafeBytes { iv in
                    padded.withUnsafeBytes { Nettle.aes256CBCEncrypt(into: output, plaintext: $0, key: key, iv: iv) }
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
