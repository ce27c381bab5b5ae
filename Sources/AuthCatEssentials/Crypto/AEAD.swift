#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// XChaCha20-Poly1305 (IETF) authenticated encryption with a random nonce.
///
/// A sealed box is `nonce (24 bytes) || ciphertext || tag (16 bytes)`.
public enum AEAD {
    public static let keySize = Sodium.aeadKeySize
    public static let nonceSize = Sodium.aeadNonceSize
    public static let tagSize = Sodium.aeadTagSize

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
        try box.withUnsafeBytes { boxBytes in
            try associatedData.withUnsafeBytes { ad in
                try key.withUnsafeBytes { k in
                    try plaintext.withUnsafeMutableBytes { out in
                        try Sodium.aeadDecrypt(
                            into: out, ciphertext: UnsafeRawBufferPointer(rebasing: boxBytes[nonceSize...]),
                            associatedData: ad, nonce: UnsafeRawBufferPointer(rebasing: boxBytes[..<nonceSize]), key: k)
                    }
                }
            }
        }
        return plaintext
    }

    private static func seal(
        bytes plaintext: UnsafeRawBufferPointer, key: SecretBytes, associatedData: Data
    ) throws -> Data {
        try Sodium.ensureInitialized()
        try checkKey(key)
        var box = Data(count: nonceSize + plaintext.count + tagSize)
        try box.withUnsafeMutableBytes { boxBytes in
            let nonce = UnsafeMutableRawBufferPointer(rebasing: boxBytes[..<nonceSize])
            Sodium.randomBytes(nonce)
            try associatedData.withUnsafeBytes { ad in
                try key.withUnsafeBytes { k in
                    try Sodium.aeadEncrypt(
                        into: UnsafeMutableRawBufferPointer(rebasing: boxBytes[nonceSize...]), message: plaintext,
                        associatedData: ad, nonce: UnsafeRawBufferPointer(nonce), key: k)
                }
            }
        }
        return box
    }

    private static func checkKey(_ key: SecretBytes) throws {
        guard key.count == keySize else { throw CryptoError.invalidInput("key must be \(keySize) bytes") }
    }
}
