extension SyncStatus {
    /// The one-word health of sync that `authcat sync status` shows, with the exit code scripts test.
    ///
    /// Exit codes: 0 healthy or off (`off`, `succeeded`, `in progress`);
    /// otherwise a distinct code per state, so that a script can alert on any
    /// non-zero status and still tell the causes apart.
    public enum Summary: String, Codable, CaseIterable, Sendable {
        /// Sync is not turned on for this vault.
        case off
        /// Sync is on but no setup, import or export was recorded.
        case notStarted = "not started"
        /// A setup, import or export is running now.
        case inProgress = "in progress"
        /// The latest import and export succeeded.
        case succeeded
        /// Sync was set up, but nothing was imported since.
        case notSyncing = "not syncing"
        /// The latest sync failed for a reason not covered below (integrity, wrong key, interrupted…).
        case error
        /// The remote could not be reached.
        case noNetwork = "no network"
        /// The remote refused the credentials, or the bucket or folder is missing.
        case accountNotAvailable = "account not available"
        /// Another device deleted the remote data; local data is kept.
        case remoteDeleted = "remote deleted"
        /// The remote holds a different vault than the one this device joined.
        case vaultMismatch = "vault mismatch"
        /// A key rotation on another device revoked this one; local data is kept.
        case revoked

        /// The process exit status for this state; see the type's documentation.
        public var exitCode: Int32 {
            switch self {
            case .off, .succeeded, .inProgress: 0
            case .notStarted: 2
            case .notSyncing: 3
            case .error: 4
            case .noNetwork: 5
            case .accountNotAvailable: 6
            case .remoteDeleted: 7
            case .vaultMismatch: 8
            case .revoked: 9
            }
        }

        /// Whether scripts should consider sync healthy (exit code 0).
        public var isHealthy: Bool { exitCode == 0 }
    }
}
