import CSodium

/// Errors from libsodium, each naming the operation that failed.
public enum CryptoError: UserFacingError, Equatable {
    /// Authenticated decryption failed: wrong key, or the data was changed.
    case authenticationFailed
    /// Input of the wrong size or shape for the operation.
    case invalidInput(String)
    /// libsodium refused an operation that should succeed (out of memory, limits).
    case operationFailed(String)

    public var description: String {
        switch self {
        case .authenticationFailed: "decryption failed: wrong key or passphrase, or the data was altered"
        case .invalidInput(let what): "invalid cryptographic input: \(what)"
        case .operationFailed(let what): "cryptographic operation failed: \(what)"
        }
    }
}

/// libsodium, initialised once per process before first use.
enum Sodium {
    /// `sodium_init` is idempotent and thread-safe; it fails only when the
    /// system cannot provide randomness, in which case no key could be made safely.
    static let initialized: Bool = sodium_init() >= 0

    static func ensureInitialized() throws {
        guard initialized else {
            throw CryptoError.operationFailed("libsodium could not initialise (no system randomness)")
        }
    }
}
