/// A synced preference that sync changed locally, and why.
public struct SyncPreferenceChange: Sendable, Hashable {
    /// Why a preference changed, as in Apple's key-value store notifications.
    public enum Reason: String, Sendable, Hashable, Codable {
        /// Another device changed it.
        case serverChange
        /// It arrived with this device's first sync of a remote vault.
        case initialSync
        /// The incoming set would break `PreferenceQuota`; it was refused locally.
        case quotaViolation
        /// It arrived from a different remote vault than this device used before.
        case accountChange
    }

    public var key: String
    public var reason: Reason

    public init(key: String, reason: Reason) {
        self.key = key
        self.reason = reason
    }
}
