import AuthCatEssentials

/// Why a preference could not be stored.
public enum PreferenceError: UserFacingError, Equatable {
    case invalidKey(String)
    case quotaExceeded(String)

    public var description: String {
        switch self {
        case .invalidKey(let reason): "invalid preference key: \(reason)"
        case .quotaExceeded(let reason): "synced preferences are over quota: \(reason); nothing was changed"
        }
    }
}

/// The limits of the synced key-value store, as for Apple's key-value store.
public enum PreferenceQuota {
    public static let maximumKeys = 1024
    public static let maximumKeyBytes = 64
    /// Keys and values together, in UTF-8 bytes.
    public static let maximumTotalBytes = 1_048_576

    /// Throws if `preferences` breaks any limit.
    public static func check(_ preferences: [String: String]) throws {
        for key in preferences.keys { try checkKey(key) }
        guard preferences.count <= maximumKeys else {
            throw PreferenceError.quotaExceeded("at most \(maximumKeys) keys")
        }
        let total = preferences.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        guard total <= maximumTotalBytes else {
            throw PreferenceError.quotaExceeded("at most \(maximumTotalBytes) bytes of keys and values")
        }
    }

    public static func checkKey(_ key: String) throws {
        guard !key.isEmpty else { throw PreferenceError.invalidKey("it is empty") }
        guard key.utf8.count <= maximumKeyBytes else {
            throw PreferenceError.invalidKey("longer than \(maximumKeyBytes) bytes")
        }
    }
}
