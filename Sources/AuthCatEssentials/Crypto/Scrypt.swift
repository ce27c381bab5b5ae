#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// scrypt (RFC 7914), through libsodium's low-level
/// `crypto_pwhash_scryptsalsa208sha256_ll`: only for reading files other apps
/// wrote (Aegis vaults); authcat's own keys use Argon2id.
public enum Scrypt {
    /// The most memory scrypt may use: 1 GiB. libsodium allocates `128 · r · N`
    /// bytes for the large array and `128 · r · p` for the blocks, and both
    /// count. Aegis asks for 32 MiB (N = 2^15, r = 8, p = 1).
    public static let maximumMemory: UInt64 = 1 << 30
    /// The most work scrypt may do, as N · r · p: 2^23, what N · r takes at
    /// the memory bound with p = 1, 32 times what Aegis asks for (a few seconds).
    public static let maximumWork: UInt64 = 1 << 23

    /// Derives `length` bytes from `password` and `salt`.
    ///
    /// - Throws: `CryptoError.invalidInput` unless `n` is a power of two above 1
    ///   and `r` and `p` are at least 1; `KeyDerivationLimitError` when the
    ///   memory or work needed is above `maximumMemory` or `maximumWork`.
    ///   Checked before any memory is taken.
    public static func deriveKey(
        password: SecretBytes, salt: Data, n: UInt64, r: UInt32, p: UInt32,
        length: Int = 32
    ) throws -> SecretBytes {
        try Sodium.ensureInitialized()
        try checkParameters(n: n, r: r, p: p)
        guard password.count > 0 else { throw CryptoError.invalidInput("the password is empty") }
        guard !salt.isEmpty else { throw CryptoError.invalidInput("the scrypt salt is empty") }
        guard length > 0 else { throw CryptoError.invalidInput("scrypt output length must be positive") }
        let key = SecretBytes(count: length)
        try key.withUnsafeMutableBytes { out in
            try password.withUnsafeBytes { pass in
                try salt.withUnsafeBytes { s in try Sodium.scrypt(into: out, password: pass, salt: s, n: n, r: r, p: p)
                }
            }
        }
        return key
    }

    /// The one bound every scrypt derivation passes; all arithmetic is
    /// checked, since the parameters come from a file.
    public static func checkParameters(n: UInt64, r: UInt32, p: UInt32) throws {
        guard n > 1, n & (n - 1) == 0 else { throw CryptoError.invalidInput("scrypt N must be a power of two above 1") }
        guard r >= 1, p >= 1 else { throw CryptoError.invalidInput("scrypt r and p must be at least 1") }
        let blocks = n.addingReportingOverflow(UInt64(p))
        let memory = blocks.partialValue.multipliedReportingOverflow(by: 128 * UInt64(r))
        guard !blocks.overflow, !memory.overflow, memory.partialValue <= maximumMemory else {
            let asked = blocks.overflow || memory.overflow ? UInt64.max : memory.partialValue
            throw KeyDerivationLimitError(demand: .memory(asked, allowed: maximumMemory))
        }
        // Memory bounds N·r and r·p below 2^23 each, so N·r·p fits in 64 bits.
        let work = n * UInt64(r) * UInt64(p)
        guard work <= maximumWork else {
            throw KeyDerivationLimitError(demand: .scryptWork(work, allowed: maximumWork))
        }
    }
}
