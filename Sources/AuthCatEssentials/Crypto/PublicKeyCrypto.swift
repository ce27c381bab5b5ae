#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// libsodium's public-key primitives, through `Sodium` (which checks every
/// return code): Ed25519 signatures, sealed boxes to an X25519 key and
/// BLAKE2b. Secret halves are `SecretBytes`; public halves and signatures are
/// plain `Data`.
public enum PublicKeyCrypto {
    public static let signingPublicKeySize = Sodium.signingPublicKeySize
    public static let signingSecretKeySize = Sodium.signingSecretKeySize
    public static let signatureSize = Sodium.signatureSize
    public static let boxPublicKeySize = Sodium.boxPublicKeySize
    public static let boxSecretKeySize = Sodium.boxSecretKeySize
    public static let sealOverhead = Sodium.sealOverhead
    public static let hashSize = Sodium.hashSize

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
        try publicKey.withUnsafeMutableBytes { pk in
            try secretKey.withUnsafeMutableBytes { sk in try Sodium.signingKeyPair(publicKey: pk, secretKey: sk) }
        }
        return KeyPair(publicKey: publicKey, secretKey: secretKey)
    }

    /// The public half of an Ed25519 secret key, as libsodium stores it in the secret key.
    public static func signingPublicKey(of secretKey: SecretBytes) throws -> Data {
        try Sodium.ensureInitialized()
        try checkSize(secretKey.count, signingSecretKeySize, "ed25519 secret key")
        var publicKey = Data(count: signingPublicKeySize)
        try publicKey.withUnsafeMutableBytes { pk in
            try secretKey.withUnsafeBytes { sk in try Sodium.signingPublicKey(into: pk, secretKey: sk) }
        }
        return publicKey
    }

    /// A detached Ed25519 signature (64 bytes) of `message`.
    public static func sign(_ message: Data, secretKey: SecretBytes) throws -> Data {
        try Sodium.ensureInitialized()
        try checkSize(secretKey.count, signingSecretKeySize, "ed25519 secret key")
        var signature = Data(count: signatureSize)
        try signature.withUnsafeMutableBytes { sig in
            try message.withUnsafeBytes { msg in
                try secretKey.withUnsafeBytes { sk in try Sodium.sign(into: sig, message: msg, secretKey: sk) }
            }
        }
        return signature
    }

    /// Whether `signature` is a valid Ed25519 signature of `message` by `publicKey`.
    /// Wrong sizes are simply not valid: the inputs come from untrusted storage.
    public static func isValidSignature(_ signature: Data, of message: Data, publicKey: Data) throws -> Bool {
        try Sodium.ensureInitialized()
        guard signature.count == signatureSize, publicKey.count == signingPublicKeySize else { return false }
        return signature.withUnsafeBytes { sig in
            message.withUnsafeBytes { msg in
                publicKey.withUnsafeBytes { pk in Sodium.isValidSignature(sig, message: msg, publicKey: pk) }
            }
        }
    }

    // MARK: X25519 sealed boxes

    /// A fresh X25519 key pair for `sealed(_:to:)`.
    public static func boxKeyPair() throws -> KeyPair {
        try Sodium.ensureInitialized()
        var publicKey = Data(count: boxPublicKeySize)
        let secretKey = SecretBytes(count: boxSecretKeySize)
        try publicKey.withUnsafeMutableBytes { pk in
            try secretKey.withUnsafeMutableBytes { sk in try Sodium.boxKeyPair(publicKey: pk, secretKey: sk) }
        }
        return KeyPair(publicKey: publicKey, secretKey: secretKey)
    }

    /// The public half of an X25519 secret key.
    public static func boxPublicKey(of secretKey: SecretBytes) throws -> Data {
        try Sodium.ensureInitialized()
        try checkSize(secretKey.count, boxSecretKeySize, "x25519 secret key")
        var publicKey = Data(count: boxPublicKeySize)
        try publicKey.withUnsafeMutableBytes { pk in
            try secretKey.withUnsafeBytes { sk in try Sodium.boxPublicKey(into: pk, secretKey: sk) }
        }
        return publicKey
    }

    /// `secret` sealed anonymously to `publicKey`: only the secret half opens it.
    /// Anyone may seal to a public key, so a sealed box proves nothing about its sender.
    public static func sealed(_ secret: SecretBytes, to publicKey: Data) throws -> Data {
        try Sodium.ensureInitialized()
        try checkSize(publicKey.count, boxPublicKeySize, "x25519 public key")
        var box = Data(count: secret.count + sealOverhead)
        try box.withUnsafeMutableBytes { out in
            try secret.withUnsafeBytes { message in
                try publicKey.withUnsafeBytes { pk in try Sodium.seal(into: out, message: message, publicKey: pk) }
            }
        }
        return box
    }

    /// Opens a sealed box; `CryptoError.authenticationFailed` if it was not sealed to this key pair or was changed.
    public static func openSealed(_ box: Data, keyPair: KeyPair) throws -> SecretBytes {
        try Sodium.ensureInitialized()
        try checkSize(keyPair.publicKey.count, boxPublicKeySize, "x25519 public key")
        try checkSize(keyPair.secretKey.count, boxSecretKeySize, "x25519 secret key")
        guard box.count >= sealOverhead else { throw CryptoError.authenticationFailed }
        let secret = SecretBytes(count: box.count - sealOverhead)
        try secret.withUnsafeMutableBytes { out in
            try box.withUnsafeBytes { sealedBytes in
                try keyPair.publicKey.withUnsafeBytes { pk in
                    try keyPair.secretKey.withUnsafeBytes { sk in
                        try Sodium.openSealed(into: out, box: sealedBytes, publicKey: pk, secretKey: sk)
                    }
                }
            }
        }
        return secret
    }

    // MARK: BLAKE2b

    /// BLAKE2b-256 of `message`, keyed with `key` when one is given (16 to 64 bytes).
    public static func hash(_ message: Data, key: SecretBytes? = nil) throws -> Data {
        try Sodium.ensureInitialized()
        if let key, !Sodium.hashKeySizes.contains(key.count) {
            throw CryptoError.invalidInput("hash key must be 16 to 64 bytes")
        }
        var digest = Data(count: hashSize)
        try digest.withUnsafeMutableBytes { out in
            try message.withUnsafeBytes { msg in
                if let key {
                    try key.withUnsafeBytes { try Sodium.genericHash(into: out, message: msg, key: $0) }
                } else {
                    try Sodium.genericHash(into: out, message: msg, key: nil)
                }
            }
        }
        return digest
    }

    /// Compares two public values (hashes, commitments) in constant time.
    public static func constantTimeEqual(_ lhs: Data, _ rhs: Data) -> Bool {
        lhs.withUnsafeBytes { l in rhs.withUnsafeBytes { r in Sodium.constantTimeEqual(l, r) } }
    }

    private static func checkSize(_ count: Int, _ expected: Int, _ what: String) throws {
        guard count == expected else { throw CryptoError.invalidInput("\(what) must be \(expected) bytes") }
    }
}
