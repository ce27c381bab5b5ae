import CSodium
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// scrypt (RFC 7914), through libsodium's low-level
/// `crypto_pwhash_scryptsalsa208sha256_ll`: only for reading files other apps
/// wrote (Aegis vaults); authcat's own keys use Argon2id.
public enum Scrypt {
    /// The largest memory scrypt may use (`128 · N · r` bytes): 1 GiB, four
    /// times what Aegis asks for, so a hostile file cannot exhaust memory.
    public static let maximumMemory: UInt64 = 1 << 30

    /// Derives `length` bytes from `password` and `salt`.
    ///
    /// - Throws: `CryptoError.invalidInput` unless `n` is a power of two above 1,
    ///   `r` and `p` are at least 1, `p · r` is below 2^30 and the memory needed
    ///   is at most `maximumMemory`.
    public static func deriveKey(password: SecretBytes, salt: Data, n: UInt64, r: UInt32, p: UInt32,
                                 length: Int = 32) throws -> SecretBytes {
        try Sodium.ensureInitialized()
        try checkParameters(n: n, r: r, p: p)
        guard password.count > 0 else { throw CryptoError.invalidInput("the password is empty") }
        guard !salt.isEmpty else { throw CryptoError.invalidInput("the scrypt salt is empty") }
        guard length > 0 else { throw CryptoError.invalidInput("scrypt output length must be positive") }
        let key = SecretBytes(count: length)
        // The password, the salt and the output were checked non-empty above, so their base addresses exist.
        let status = key.withUnsafeMutableBytes { out in
            password.withUnsafeBytes { pass in
                salt.withUnsafeBytes { s in
                    crypto_pwhash_scryptsalsa208sha256_ll(
                        pass.baseAddress!.assumingMemoryBound(to: UInt8.self), pass.count,
                        s.baseAddress!.assumingMemoryBound(to: UInt8.self), s.count,
                        n, r, p, out.baseAddress!.assumingMemoryBound(to: UInt8.self), out.count)
                }
            }
        }
        guard status == 0 else { throw CryptoError.operationFailed("scrypt key derivation (out of memory?)") }
        return key
    }

    private static func checkParameters(n: UInt64, r: UInt32, p: UInt32) throws {
        guard n > 1, n & (n - 1) == 0 else { throw CryptoError.invalidInput("scrypt N must be a power of two above 1") }
        guard r >= 1, p >= 1, UInt64(r) * UInt64(p) < 1 << 30 else {
            throw CryptoError.invalidInput("scrypt r and p out of range")
        }
        let (memory, overflow) = n.multipliedReportingOverflow(by: 128 * UInt64(r))
        guard !overflow, memory <= maximumMemory else {
            throw CryptoError.invalidInput("scrypt parameters need more than \(maximumMemory >> 20) MiB of memory")
        }
    }
}
