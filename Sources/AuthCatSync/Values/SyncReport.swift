import Foundation

/// What one sync did.
public struct SyncReport: Sendable, Equatable {
    /// After this many batches since its last snapshot, compaction is due:
    /// `sync watch` compacts when idle and `sync now` suggests `sync compact`.
    /// An ordinary sync never compacts (a snapshot is as large as the vault).
    public static let compactionThreshold: Int64 = 64

    /// Record changes written to the local vault (accounts and preferences).
    public var importedChanges = 0
    /// Records sent to the remote.
    public var exportedChanges = 0
    /// Objects this device wrote to the remote, and their total size.
    public var objectsWritten = 0
    public var bytesWritten = 0
    /// Remote requests made, of every kind.
    public var requests = 0
    /// Objects rejected and chains found broken; the rest still synced.
    public var issues: [SyncReport.IntegrityIssue] = []
    /// Devices whose objects are on the remote, this one included.
    public var devicesSeen: [SyncLocalState.DeviceSeen] = []
    /// This device took another name because another device of the remote
    /// vault already carried the one it had.
    public var deviceRenamed: DeviceRename?
    /// Synced preferences that changed here, with the reason.
    public var preferenceChanges: [SyncReport.PreferenceChange] = []
    /// This device's offline edits that an incoming, newer change of the same
    /// field replaced (history keeps both).
    public var replacedEdits: [SyncReport.ReplacedEdit] = []
    /// Whether this sync wrote a snapshot (a compaction, or a repair
    /// after this device's objects were lost on the remote).
    public var snapshotWritten = false
    /// This device's batches and older snapshots removed because a new snapshot covers them.
    public var objectsRemoved = 0
    /// Batches this device has on the remote since its newest snapshot, after this sync.
    public var batchesSinceSnapshot: Int64 = 0

    public init() {}

    /// Whether enough batches piled up for a compaction to be worth
    /// running (`compactionThreshold`).
    public var compactionDue: Bool { batchesSinceSnapshot >= SyncReport.compactionThreshold }

    /// The rejected objects among `issues`.
    public var rejectedObjects: [SyncReport.IntegrityIssue] {
        issues.filter { $0.kind == .rejected || $0.kind == .replayed }
    }
    /// The rollback, gap and blocked-device warnings among `issues`.
    public var chainWarnings: [SyncReport.IntegrityIssue] {
        issues.filter { [.rollback, .gap, .blocked].contains($0.kind) }
    }
}

extension SyncReport {
    /// A synced preference that sync changed locally, and why.
    public struct PreferenceChange: Sendable, Hashable {
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
}

extension SyncReport {
    /// An account field this device changed offline that a newer change from
    /// another device replaced. Names the field only: its values (a secret, a
    /// note) are never part of a report.
    public struct ReplacedEdit: Sendable, Hashable {
        public var accountID: UUID
        /// The account's issuer and name after the sync.
        public var issuer: String
        public var name: String
        /// The synced field: `issuer`, `name`, `otp`, `tags`, `note`, `secret` or `deleted`.
        public var field: String
        /// The device that wrote the winning change, and its name as its newest batch gave it.
        public var deviceID: String
        public var deviceName: String?

        public init(
            accountID: UUID, issuer: String, name: String, field: String, deviceID: String, deviceName: String?
        ) {
            self.accountID = accountID
            self.issuer = issuer
            self.name = name
            self.field = field
            self.deviceID = deviceID
            self.deviceName = deviceName
        }
    }
}
