#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// PBKDF2 (RFC 8018) with HMAC-SHA-1 or HMAC-SHA-256, through Nettle: only
/// for reading files other apps wrote (2FAS, andOTP, Bitwarden, Authenticator
/// Pro); authcat's own keys use Argon2id.
public enum PBKDF2 {
    /// The HMAC the iterations run.
    public enum Hash: Sendable {
        case sha1, sha256
    }

    /// The most iterations a file may ask for: 10 million, a few seconds of
    /// one core; Bitwarden allows at most 2 million and andOTP writes some
    /// hundred thousand. The count is read from the file before anything is
    /// authenticated, so without a bound one file could run for hours.
    public static let maximumIterations: UInt64 = 10_000_000

    /// Derives `length` bytes from `password` and `salt`.
    ///
    /// - Throws: `KeyDerivationLimitError` above `maximumIterations`;
    ///   `CryptoError.invalidInput` for no iterations, an empty salt or length.
    public static func deriveKey(
        password: SecretBytes, salt: Data, iterations: UInt64, hash: Hash, length: Int = 32
    ) throws -> SecretBytes {
        try checkIterations(iterations)
        guard !salt.isEmpty, length > 0 else { throw CryptoError.invalidInput("an empty PBKDF2 salt or key") }
        let key = SecretBytes(count: length)
        key.withUnsafeMutableBytes { out in
            password.withUnsafeBytes { pass in
                salt.withUnsafeBytes {
                    Nettle.pbkdf2(
                        hash == .sha1 ? .sha1 : .sha256, into: out, password: pass, salt: $0,
                        iterations: UInt32(iterations))
                }
            }
        }
        return key
    }

    /// The one bound every PBKDF2 derivation passes, checked before the
    /// password is asked for.
    public static func checkIterations(_ iterations: UInt64) throws {
        guard iterations >= 1 else { throw CryptoError.invalidInput("PBKDF2 needs at least one iteration") }
        guard iterations <= maximumIterations else {
            throw KeyDerivationLimitError(demand: .iterations(iterations, allowed: maximumIterations))
        }
    }
}
