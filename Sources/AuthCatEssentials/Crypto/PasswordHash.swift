import CSodium

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Argon2id (libsodium `crypto_pwhash`, algorithm `ARGON2ID13`) parameters, stored beside what they protect.
public struct KDFParameters: Codable, Equatable, Sendable {
    public var algorithm: String
    public var opsLimit: UInt64
    public var memLimit: UInt64
    public var salt: Data

    public static let algorithmName = "argon2id13"
    public static let saltSize = Int(crypto_pwhash_SALTBYTES)
    /// The most memory stored parameters may ask for: 1 GiB, libsodium's
    /// "sensitive" limit and what `backup --kdf sensitive` uses. Parameters are
    /// read from files and remotes before anything is authenticated.
    public static let maximumMemLimit: UInt64 = 1 << 30
    /// The most passes stored parameters may ask for: 16, four times libsodium's
    /// "sensitive" preset; at 1 GiB that is some tens of seconds, not hours.
    public static let maximumOpsLimit: UInt64 = 16

    /// libsodium's "interactive" limits (2 passes, 64 MiB): for the local vault key.
    public static func interactive() throws -> KDFParameters {
        try KDFParameters(
            opsLimit: UInt64(crypto_pwhash_OPSLIMIT_INTERACTIVE), memLimit: UInt64(crypto_pwhash_MEMLIMIT_INTERACTIVE))
    }

    /// libsodium's "moderate" limits (3 passes, 256 MiB): for keys that protect remote data.
    public static func moderate() throws -> KDFParameters {
        try KDFParameters(
            opsLimit: UInt64(crypto_pwhash_OPSLIMIT_MODERATE), memLimit: UInt64(crypto_pwhash_MEMLIMIT_MODERATE))
    }

    /// New parameters with a fresh random salt.
    public init(opsLimit: UInt64, memLimit: UInt64) throws {
        self.algorithm = Self.algorithmName
        self.opsLimit = opsLimit
        self.memLimit = memLimit
        self.salt = try SecretBytes.random(count: Self.saltSize).unprotectedData()
    }

    /// Checks the parameters before any memory is taken: the one bound every
    /// Argon2id derivation passes, whoever wrote the parameters.
    ///
    /// - Throws: `KeyDerivationLimitError` for more than `maximumMemLimit` or
    ///   `maximumOpsLimit`; `CryptoError.invalidInput` for an unknown algorithm,
    ///   a salt of the wrong size or limits below libsodium's minimums.
    public func checkLimits() throws {
        guard algorithm == Self.algorithmName else {
            throw CryptoError.invalidInput("unknown key derivation '\(algorithm)'")
        }
        guard salt.count == Self.saltSize else { throw CryptoError.invalidInput("salt must be \(Self.saltSize) bytes") }
        guard memLimit <= Self.maximumMemLimit else {
            throw KeyDerivationLimitError(demand: .memory(memLimit, allowed: Self.maximumMemLimit))
        }
        guard opsLimit <= Self.maximumOpsLimit else {
            throw KeyDerivationLimitError(demand: .passes(opsLimit, allowed: Self.maximumOpsLimit))
        }
        guard opsLimit >= UInt64(crypto_pwhash_OPSLIMIT_MIN), memLimit >= UInt64(crypto_pwhash_MEMLIMIT_MIN) else {
            throw CryptoError.invalidInput("key derivation limits below libsodium's minimums")
        }
    }

    /// Derives a key of `length` bytes from `passphrase`, once `checkLimits` passes.
    public func deriveKey(from passphrase: SecretBytes, length: Int = AEAD.keySize) throws -> SecretBytes {
        try Sodium.ensureInitialized()
        try checkLimits()
        let key = SecretBytes(count: length)
        guard passphrase.count > 0 else { throw CryptoError.invalidInput("the passphrase is empty") }
        // The output, the passphrase and the salt were checked non-empty above, so their base addresses exist.
        let status = key.withUnsafeMutableBytes { out in
            passphrase.withUnsafeBytes { pass in
                salt.withUnsafeBytes { s in
                    crypto_pwhash(
                        out.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(out.count),
                        pass.baseAddress!.assumingMemoryBound(to: CChar.self), UInt64(pass.count),
                        s.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        opsLimit, Int(memLimit), crypto_pwhash_ALG_ARGON2ID13)
                }
            }
        }
        guard status == 0 else { throw CryptoError.operationFailed("argon2id key derivation (out of memory?)") }
        return key
    }
}
