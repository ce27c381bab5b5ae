#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// AES-256-GCM, the cipher Aegis seals its vaults with: a 32-byte key, a
/// nonce of any length but empty (Aegis writes 12 bytes), and a 16-byte tag
/// kept apart from the ciphertext, as Aegis keeps it. authcat seals nothing
/// of its own with it (its own cipher is `AEAD`); it reads other apps' files,
/// and tests write such files.
public enum AESGCM {
    public static let keySize = Nettle.aes256KeySize
    public static let tagSize = Nettle.gcmTagSize
    /// The nonce size GCM is made for, which Aegis writes.
    public static let nonceSize = 12

    /// The plaintext of `ciphertext`; the caller wipes it when done.
    /// - Throws: `CryptoError.invalidInput` for a key, nonce or tag of the
    ///   wrong size; `CryptoError.authenticationFailed` when the tag does not
    ///   match (a wrong key, or altered data).
    public static func open(_ ciphertext: Data, key: SecretBytes, nonce: Data, tag: Data) throws -> Data {
        try checkSizes(key: key, nonce: nonce)
        guard tag.count == tagSize else { throw CryptoError.invalidInput("an AES-GCM tag has \(tagSize) bytes") }
        var plaintext = Data(count: ciphertext.count)
        let authentic = plaintext.withUnsafeMutableBytes { output in
            key.withUnsafeBytes { key in
                nonce.withUnsafeBytes { nonce in
                    ciphertext.withUnsafeBytes { ciphertext in
                        tag.withUnsafeBytes { tag in
                            Nettle.aes256GCMDecrypt(
                                into: output, ciphertext: ciphertext, tag: tag, key: key, nonce: nonce)
                        }
                    }
                }
            }
        }
        guard authentic else { throw CryptoError.authenticationFailed }
        return plaintext
    }

    /// `plaintext` sealed under `key` with a fresh random 12-byte nonce: the
    /// nonce, the ciphertext (as long as the plaintext) and the tag. The one
    /// way program code seals: it never reuses a nonce, since it picks each.
    public static func sealWithFreshNonce(
        _ plaintext: Data, key: SecretBytes
    ) throws -> (nonce: Data, ciphertext: Data, tag: Data) {
        let nonce = try SecretBytes.random(count: nonceSize).unprotectedData()
        let (ciphertext, tag) = try seal(plaintext, key: key, nonce: nonce)
        return (nonce, ciphertext, tag)
    }

    /// `plaintext` sealed under `key` and `nonce`: the ciphertext (as long
    /// as the plaintext) and the tag. For tests that write Aegis files: a
    /// nonce used twice under one key gives the key away, so no program
    /// code seals with a nonce it was handed.
    package static func seal(_ plaintext: Data, key: SecretBytes, nonce: Data) throws -> (ciphertext: Data, tag: Data) {
        try checkSizes(key: key, nonce: nonce)
        var ciphertext = Data(count: plaintext.count)
        var tag = Data(count: tagSize)
        ciphertext.withUnsafeMutableBytes { output in
            tag.withUnsafeMutableBytes { tag in
                key.withUnsafeBytes { key in
                    nonce.withUnsafeBytes { nonce in
                        plaintext.withUnsafeBytes {
                            Nettle.aes256GCMEncrypt(into: output, tag: tag, plaintext: $0, key: key, nonce: nonce)
                        }
                    }
                }
            }
        }
        return (ciphertext, tag)
    }

    private static func checkSizes(key: SecretBytes, nonce: Data) throws {
        guard key.count == keySize else { throw CryptoError.invalidInput("an AES-256 key has \(keySize) bytes") }
        guard !nonce.isEmpty else { throw CryptoError.invalidInput("an AES-GCM nonce is empty") }
    }
}
