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
    public static let saltSize = Sodium.argon2SaltSize
    /// The most memory stored parameters may ask for: 1 GiB, libsodium's
    /// "sensitive" limit and what `backup --kdf sensitive` uses. Parameters are
    /// read from files and remotes before anything is authenticated.
    public static let maximumMemLimit: UInt64 = 1 << 30
    /// The most passes stored parameters may ask for: 16, four times libsodium's
    /// "sensitive" preset; at 1 GiB that is some tens of seconds, not hours.
    public static let maximumOpsLimit: UInt64 = 16
    /// The fewest passes libsodium accepts (1): what the cheapest parameters, for tests, use.
    public static let minimumOpsLimit = Sodium.argon2MinimumOpsLimit
    /// The least memory libsodium accepts (8 KiB).
    public static let minimumMemLimit = Sodium.argon2MinimumMemLimit

    /// libsodium's "interactive" limits (2 passes, 64 MiB): for the local vault key.
    public static func interactive() throws -> KDFParameters {
        try KDFParameters(
            opsLimit: Sodium.argon2InteractiveLimits.opsLimit, memLimit: Sodium.argon2InteractiveLimits.memLimit)
    }

    /// libsodium's "moderate" limits (3 passes, 256 MiB): for keys that protect remote data.
    public static func moderate() throws -> KDFParameters {
        try KDFParameters(
            opsLimit: Sodium.argon2ModerateLimits.opsLimit, memLimit: Sodium.argon2ModerateLimits.memLimit)
    }

    /// New parameters with a fresh random salt.
    public init(opsLimit: UInt64, memLimit: UInt64) throws {
        self.algorithm = Self.algorithmName
        self.opsLimit = opsLimit
        self.memLimit = memLimit
        self.salt = try SecretBytes.random(count: Self.saltSize).unprotectedData()
    }

    /// Parameters as stored (`VaultKeyFile.plainForm`); `checkLimits` judges them before use.
    init(algorithm: String, opsLimit: UInt64, memLimit: UInt64, salt: Data) {
        self.algorithm = algorithm
        self.opsLimit = opsLimit
        self.memLimit = memLimit
        self.salt = salt
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
        guard opsLimit >= Self.minimumOpsLimit, memLimit >= Self.minimumMemLimit else {
            throw CryptoError.invalidInput("key derivation limits below libsodium's minimums")
        }
    }

    /// Derives a key of `length` bytes from `passphrase`, once `checkLimits` passes.
    public func deriveKey(from passphrase: SecretBytes, length: Int = AEAD.keySize) throws -> SecretBytes {
        try Sodium.ensureInitialized()
        try checkLimits()
        let key = SecretBytes(count: length)
        guard passphrase.count > 0 else { throw CryptoError.invalidInput("the passphrase is empty") }
        try key.withUnsafeMutableBytes { out in
            try passphrase.withUnsafeBytes { pass in
                try salt.withUnsafeBytes { s in
                    try Sodium.argon2id(into: out, password: pass, salt: s, opsLimit: opsLimit, memLimit: memLimit)
                }
            }
        }
        return key
    }
}
