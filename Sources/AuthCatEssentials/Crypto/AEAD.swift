import CSodium

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// XChaCha20-Poly1305 (IETF) authenticated encryption with a random nonce.
///
/// A sealed box is `nonce (24 bytes) || ciphertext || tag (16 bytes)`.
public enum AEAD {
    public static let keySize = Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES)
    public static let nonceSize = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    public static let tagSize = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)

    /// Encrypts `plaintext` under `key`, binding `associatedData` to it.
    public static func seal(_ plaintext: SecretBytes, key: SecretBytes, associatedData: Data) throws -> Data {
        try plaintext.withUnsafeBytes { try seal(bytes: $0, key: key, associatedData: associatedData) }
    }

    /// Encrypts non-secret or already-copied `plaintext`.
    public static func seal(_ plaintext: Data, key: SecretBytes, associatedData: Data) throws -> Data {
        try plaintext.withUnsafeBytes { try seal(bytes: $0, key: key, associatedData: associatedData) }
    }

    /// Decrypts a box made by `seal`; throws `CryptoError.authenticationFailed`
    /// when the key, the associated data or any byte of the box is wrong.
    public static func open(_ box: Data, key: SecretBytes, associatedData: Data) throws -> SecretBytes {
        try Sodium.ensureInitialized()
        try checkKey(key)
        guard box.count >= nonceSize + tagSize else { throw CryptoError.authenticationFailed }
        let plaintext = SecretBytes(count: box.count - nonceSize - tagSize)
        // The box and the key were checked non-empty above, so their base addresses exist.
        let status = box.withUnsafeBytes { boxBytes in
            associatedData.withUnsafeBytes { ad in
                key.withUnsafeBytes { k in
                    plaintext.withUnsafeMutableBytes { out in
                        crypto_aead_xchacha20poly1305_ietf_decrypt(
                            out.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, nil,
                            boxBytes.baseAddress!.advanced(by: nonceSize).assumingMemoryBound(to: UInt8.self),
                            UInt64(box.count - nonceSize),
                            ad.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(ad.count),
                            boxBytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                            k.baseAddress!.assumingMemoryBound(to: UInt8.self))
                    }
                }
            }
        }
        guard status == 0 else { throw CryptoError.authenticationFailed }
        return plaintext
    }

    private static func seal(
        bytes plaintext: UnsafeRawBufferPointer, key: SecretBytes, associatedData: Data
    ) throws -> Data {
        try Sodium.ensureInitialized()
        try checkKey(key)
        // The box holds at least a nonce and a tag, and the key was checked: base addresses exist.
        var box = Data(count: nonceSize + plaintext.count + tagSize)
        let status = box.withUnsafeMutableBytes { boxBytes in
            let nonce = boxBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            randombytes_buf(nonce, nonceSize)
            return associatedData.withUnsafeBytes { ad in
                key.withUnsafeBytes { k in
                    crypto_aead_xchacha20poly1305_ietf_encrypt(
                        nonce.advanced(by: nonceSize), nil,
                        plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(plaintext.count),
                        ad.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(ad.count),
                        nil, nonce, k.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
        }
        guard status == 0 else { throw CryptoError.operationFailed("xchacha20poly1305 encryption") }
        return box
    }

    private static func checkKey(_ key: SecretBytes) throws {
        guard key.count == keySize else { throw CryptoError.invalidInput("key must be \(keySize) bytes") }
    }
}
