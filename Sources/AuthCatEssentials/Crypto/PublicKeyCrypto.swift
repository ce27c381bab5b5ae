import CSodium

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// libsodium's public-key primitives, each with its return code checked:
/// Ed25519 signatures (`crypto_sign`), sealed boxes to an X25519 key
/// (`crypto_box_seal`) and BLAKE2b (`crypto_generichash`). Secret halves are
/// `SecretBytes`; public halves and signatures are plain `Data`.
public enum PublicKeyCrypto {
    public static let signingPublicKeySize = Int(crypto_sign_PUBLICKEYBYTES)
    public static let signingSecretKeySize = Int(crypto_sign_SECRETKEYBYTES)
    public static let signatureSize = Int(crypto_sign_BYTES)
    public static let boxPublicKeySize = Int(crypto_box_PUBLICKEYBYTES)
    public static let boxSecretKeySize = Int(crypto_box_SECRETKEYBYTES)
    public static let sealOverhead = Int(crypto_box_sealbytes())
    public static let hashSize = Int(crypto_generichash_BYTES)

    /// A key pair: the public half to hand out, the secret half to keep.
    public struct KeyPair: Sendable {
        public let publicKey: Data
        public let secretKey: SecretBytes

        public init(publicKey: Data, secretKey: SecretBytes) {
            self.publicKey = publicKey
            self.secretKey = secretKey
        }
    }

    // MARK: Ed25519 signatures

    /// A fresh Ed25519 key pair; the secret half is 64 bytes (seed ‖ public key).
    public static func signingKeyPair() throws -> KeyPair {
        try Sodium.ensureInitialized()
        var publicKey = Data(count: signingPublicKeySize)
        let secretKey = SecretBytes(count: signingSecretKeySize)
        // Both buffers are allocated at their libsodium sizes just above.
        let status = publicKey.withUnsafeMutableBytes { pk in
            secretKey.withUnsafeMutableBytes { sk in
                crypto_sign_keypair(
                    pk.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    sk.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        guard status == 0 else { throw CryptoError.operationFailed("ed25519 key generation") }
        return KeyPair(publicKey: publicKey, secretKey: secretKey)
    }

    /// The public half of an Ed25519 secret key, as libsodium stores it in the secret key.
    public static func signingPublicKey(of secretKey: SecretBytes) throws -> Data {
        try Sodium.ensureInitialized()
        try checkSize(secretKey.count, signingSecretKeySize, "ed25519 secret key")
        var publicKey = Data(count: signingPublicKeySize)
        // Sizes were checked above.
        let status = publicKey.withUnsafeMutableBytes { pk in
            secretKey.withUnsafeBytes { sk in
                crypto_sign_ed25519_sk_to_pk(
                    pk.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    sk.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        guard status == 0 else { throw CryptoError.operationFailed("ed25519 public key extraction") }
        return publicKey
    }

    /// A detached Ed25519 signature (64 bytes) of `message`.
    public static func sign(_ message: Data, secretKey: SecretBytes) throws -> Data {
        try Sodium.ensureInitialized()
        try checkSize(secretKey.count, signingSecretKeySize, "ed25519 secret key")
        var signature = Data(count: signatureSize)
        // The signature and the key have their libsodium sizes; an empty message may have no base address.
        let status = signature.withUnsafeMutableBytes { sig in
            message.withUnsafeBytes { msg in
                secretKey.withUnsafeBytes { sk in
                    crypto_sign_detached(
                        sig.baseAddress!.assumingMemoryBound(to: UInt8.self), nil,
                        msg.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(msg.count),
                        sk.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
        }
        guard status == 0 else { throw CryptoError.operationFailed("ed25519 signing") }
        return signature
    }

    /// Whether `signature` is a valid Ed25519 signature of `message` by `publicKey`.
    /// Wrong sizes are simply not valid: the inputs come from untrusted storage.
    public static func isValidSignature(_ signature: Data, of message: Data, publicKey: Data) throws -> Bool {
        try Sodium.ensureInitialized()
        guard signature.count == signatureSize, publicKey.count == signingPublicKeySize else { return false }
        // Both have their libsodium sizes, checked above.
        let status = signature.withUnsafeBytes { sig in
            message.withUnsafeBytes { msg in
                publicKey.withUnsafeBytes { pk in
                    crypto_sign_verify_detached(
                        sig.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        msg.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(msg.count),
                        pk.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
        }
        return status == 0
    }

    // MARK: X25519 sealed boxes

    /// A fresh X25519 key pair for `sealed(_:to:)`.
    public static func boxKeyPair() throws -> KeyPair {
        try Sodium.ensureInitialized()
        var publicKey = Data(count: boxPublicKeySize)
        let secretKey = SecretBytes(count: boxSecretKeySize)
        // Both buffers are allocated at their libsodium sizes just above.
        let status = publicKey.withUnsafeMutableBytes { pk in
            secretKey.withUnsafeMutableBytes { sk in
                crypto_box_keypair(
                    pk.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    sk.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        guard status == 0 else { throw CryptoError.operationFailed("x25519 key generation") }
        return KeyPair(publicKey: publicKey, secretKey: secretKey)
    }

    /// The public half of an X25519 secret key.
    public static func boxPublicKey(of secretKey: SecretBytes) throws -> Data {
        try Sodium.ensureInitialized()
        try checkSize(secretKey.count, boxSecretKeySize, "x25519 secret key")
        var publicKey = Data(count: boxPublicKeySize)
        // Sizes were checked above.
        let status = publicKey.withUnsafeMutableBytes { pk in
            secretKey.withUnsafeBytes { sk in
                crypto_scalarmult_base(
                    pk.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    sk.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        guard status == 0 else { throw CryptoError.operationFailed("x25519 public key derivation") }
        return publicKey
    }

    /// `secret` sealed anonymously to `publicKey`: only the secret half opens it.
    /// Anyone may seal to a public key, so a sealed box proves nothing about its sender.
    public static func sealed(_ secret: SecretBytes, to publicKey: Data) throws -> Data {
        try Sodium.ensureInitialized()
        try checkSize(publicKey.count, boxPublicKeySize, "x25519 public key")
        var box = Data(count: secret.count + sealOverhead)
        // The box is at least the seal overhead and the key was checked; an empty secret may have no base address.
        let status = box.withUnsafeMutableBytes { out in
            secret.withUnsafeBytes { message in
                publicKey.withUnsafeBytes { pk in
                    crypto_box_seal(
                        out.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        message.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(message.count),
                        pk.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
        }
        guard status == 0 else { throw CryptoError.operationFailed("sealed box") }
        return box
    }

    /// Opens a sealed box; `CryptoError.authenticationFailed` if it was not sealed to this key pair or was changed.
    public static func openSealed(_ box: Data, keyPair: KeyPair) throws -> SecretBytes {
        try Sodium.ensureInitialized()
        try checkSize(keyPair.publicKey.count, boxPublicKeySize, "x25519 public key")
        try checkSize(keyPair.secretKey.count, boxSecretKeySize, "x25519 secret key")
        guard box.count >= sealOverhead else { throw CryptoError.authenticationFailed }
        let secret = SecretBytes(count: box.count - sealOverhead)
        // The box holds at least the overhead and both keys were checked.
        let status = secret.withUnsafeMutableBytes { out in
            box.withUnsafeBytes { sealedBytes in
                keyPair.publicKey.withUnsafeBytes { pk in
                    keyPair.secretKey.withUnsafeBytes { sk in
                        crypto_box_seal_open(
                            out.baseAddress?.assumingMemoryBound(to: UInt8.self),
                            sealedBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(box.count),
                            pk.baseAddress!.assumingMemoryBound(to: UInt8.self),
                            sk.baseAddress!.assumingMemoryBound(to: UInt8.self))
                    }
                }
            }
        }
        guard status == 0 else { throw CryptoError.authenticationFailed }
        return secret
    }

    // MARK: BLAKE2b

    /// BLAKE2b-256 of `message`, keyed with `key` when one is given (16 to 64 bytes).
    public static func hash(_ message: Data, key: SecretBytes? = nil) throws -> Data {
        try Sodium.ensureInitialized()
        if let key {
            guard (Int(crypto_generichash_KEYBYTES_MIN)...Int(crypto_generichash_KEYBYTES_MAX)).contains(key.count)
            else { throw CryptoError.invalidInput("hash key must be 16 to 64 bytes") }
        }
        var digest = Data(count: hashSize)
        // The digest has its libsodium size; an empty message or absent key passes no address.
        let status = digest.withUnsafeMutableBytes { out in
            message.withUnsafeBytes { msg in
                withOptionalBytes(key) { keyBytes in
                    crypto_generichash(
                        out.baseAddress!.assumingMemoryBound(to: UInt8.self), hashSize,
                        msg.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(msg.count),
                        keyBytes?.baseAddress?.assumingMemoryBound(to: UInt8.self), keyBytes?.count ?? 0)
                }
            }
        }
        guard status == 0 else { throw CryptoError.operationFailed("blake2b hash") }
        return digest
    }

    /// Compares two public values (hashes, commitments) in constant time.
    public static func constantTimeEqual(_ lhs: Data, _ rhs: Data) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard !lhs.isEmpty else { return true }
        return lhs.withUnsafeBytes { l in
            rhs.withUnsafeBytes { r in sodium_memcmp(l.baseAddress, r.baseAddress, l.count) == 0 }
        }
    }

    private static func withOptionalBytes<Result>(
        _ secret: SecretBytes?, _ body: (UnsafeRawBufferPointer?) -> Result
    ) -> Result {
        guard let secret else { return body(nil) }
        return secret.withUnsafeBytes { body($0) }
    }

    private static func checkSize(_ count: Int, _ expected: Int, _ what: String) throws {
        guard count == expected else { throw CryptoError.invalidInput("\(what) must be \(expected) bytes") }
    }
}
