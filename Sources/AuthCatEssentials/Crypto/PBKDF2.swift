#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// PBKDF2 (RFC 8018), through Nettle: only for reading files other apps
/// wrote (FreeOTP, Steam Desktop Authenticator, Authy, TOTP Authenticator
/// backups); authcat's own keys use Argon2id.
public enum PBKDF2 {
    /// The HMAC hash a file names.
    public enum Hash: Sendable {
        case sha1, sha256, sha512
    }

    /// The most iterations a derivation may run: 2,000,000, a few seconds of
    /// HMAC-SHA-512, three times Bitwarden's default; the apps read here ask
    /// for 1,000 (Authy) to 100,000 (FreeOTP).
    public static let maximumIterations: UInt64 = 2_000_000
    /// The longest key a derivation may give: PBKDF2's work grows with it.
    public static let maximumLength = 64

    /// Derives `length` bytes from `password` and `salt`.
    /// - Throws: `KeyDerivationLimitError` beyond `maximumIterations`, and
    ///   `CryptoError.invalidInput` for no iterations or a length out of
    ///   1...`maximumLength`; checked before any work is done.
    public static func deriveKey(
        _ hash: Hash, password: SecretBytes, salt: Data, iterations: UInt64, length: Int = 32
    ) throws -> SecretBytes {
        try checkIterations(iterations)
        guard (1...maximumLength).contains(length) else {
            throw CryptoError.invalidInput("a PBKDF2 key has 1 to \(maximumLength) bytes")
        }
        let key = SecretBytes(count: length)
        key.withUnsafeMutableBytes { out in
            password.withUnsafeBytes { password in
                salt.withUnsafeBytes { salt in
                    Nettle.pbkdf2(hash, password: password, salt: salt, iterations: UInt32(iterations), into: out)
                }
            }
        }
        return key
    }

    /// The bound every derivation passes; callers check a file's count with
    /// it before they ask for the password.
    public static func checkIterations(_ iterations: UInt64) throws {
        guard iterations >= 1 else { throw CryptoError.invalidInput("PBKDF2 needs at least one iteration") }
        guard iterations <= maximumIterations else {
            throw KeyDerivationLimitError(demand: .iterations(iterations, allowed: maximumIterations))
        }
    }
}
