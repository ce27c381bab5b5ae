import Foundation

/// What this device's sync state says, as the monitor needs it.
///
/// The command line fills it from the sync engine's state file; tests build
/// it by hand. It holds no secret.
public struct SyncLocalState: Codable, Equatable, Sendable {
    /// Whether sync is on for this vault.
    public var isEnabled: Bool
    /// The remote, as a URL without credentials.
    public var remoteLocation: String?
    /// The id of the remote vault this device joined, to check it is still there.
    public var remoteVaultID: String?
    /// When an import and export last both succeeded, as the engine recorded it.
    public var lastSuccessfulSync: Date?
    /// Local changes not exported yet; nil when unknown (sync off).
    public var pendingLocalChanges: Int?
    /// Batches this device wrote since its newest snapshot; nil when unknown
    /// (sync never set up). At `SyncReport.compactionThreshold` or more,
    /// compaction is due.
    public var batchesSinceSnapshot: Int64?
    /// Remote objects this device rejected and skips while they stay the same.
    public var rejectedObjects: [SyncLocalState.RejectedObject]
    /// Rollbacks, gaps and blocked devices the latest sync found.
    public var standingIssues: [SyncLocalState.StandingIssue]
    /// Why the sync state cannot be used though sync was set up (lost,
    /// emptied or damaged), with what to do; nil when it is fine.
    public var stateProblem: SyncFailure?
    /// Devices whose objects were seen on the remote, this one included.
    public var devicesSeen: [SyncLocalState.DeviceSeen]
    /// Another device deleted the remote data.
    public var remoteDeleted: Bool
    /// The remote now holds a different vault.
    public var vaultMismatch: Bool
    /// Another device turned sync off everywhere.
    public var disabledEverywhere: Bool
    /// Whether the remote refuses a create-only write of an existing object
    /// (found out when sync was turned on); nil when never probed.
    public var createOnlyEnforced: Bool?
    /// A key rotation on another device revoked this one: sync stopped here for good.
    public var revoked: Bool

    public init(
        isEnabled: Bool, remoteLocation: String? = nil, remoteVaultID: String? = nil, lastSuccessfulSync: Date? = nil,
        pendingLocalChanges: Int? = nil, batchesSinceSnapshot: Int64? = nil,
        rejectedObjects: [SyncLocalState.RejectedObject] = [],
        standingIssues: [SyncLocalState.StandingIssue] = [], stateProblem: SyncFailure? = nil,
        devicesSeen: [SyncLocalState.DeviceSeen] = [],
        remoteDeleted: Bool = false, vaultMismatch: Bool = false, disabledEverywhere: Bool = false,
        createOnlyEnforced: Bool? = nil, revoked: Bool = false
    ) {
        self.createOnlyEnforced = createOnlyEnforced
        self.revoked = revoked
        self.isEnabled = isEnabled
        self.remoteLocation = remoteLocation
        self.remoteVaultID = remoteVaultID
        self.standingIssues = standingIssues
        self.stateProblem = stateProblem
        self.lastSuccessfulSync = lastSuccessfulSync
        self.pendingLocalChanges = pendingLocalChanges
        self.batchesSinceSnapshot = batchesSinceSnapshot
        self.rejectedObjects = rejectedObjects
        self.devicesSeen = devicesSeen
        self.remoteDeleted = remoteDeleted
        self.vaultMismatch = vaultMismatch
        self.disabledEverywhere = disabledEverywhere
    }

    /// Whether enough batches piled up for a compaction to be worth running.
    public var compactionDue: Bool { (batchesSinceSnapshot ?? 0) >= SyncReport.compactionThreshold }

    /// Sync never turned on.
    public static let off = SyncLocalState(isEnabled: false)
}

extension SyncLocalState {
    /// A device that writes to the same remote vault: the one type
    /// `sync devices` lists and `sync status` shows.
    public typealias DeviceSeen = DeviceDirectory.Device
}

extension SyncLocalState {
    /// A remote object this device rejected (it failed authentication, was
    /// malformed, truncated or replayed) and no longer reads while it stays the
    /// same; `authcat sync status` lists it.
    public struct RejectedObject: Codable, Equatable, Sendable {
        /// The remote object name (no account data: names are random ids and numbers).
        public var name: String
        public var kind: SyncReport.IntegrityIssue.Kind
        /// Why it was rejected.
        public var detail: String
        /// When this device first rejected it.
        public var firstSeen: Date

        public init(name: String, kind: SyncReport.IntegrityIssue.Kind, detail: String, firstSeen: Date) {
            self.name = name
            self.kind = kind
            self.detail = detail
            self.firstSeen = firstSeen
        }
    }
}

extension SyncLocalState {
    /// A problem with another device's chain of batches that the latest sync
    /// found and that lasts until the remote is repaired: a rollback, a gap, or
    /// batches waiting behind a rejected object. `authcat sync status` shows it.
    public struct StandingIssue: Codable, Equatable, Sendable {
        public var kind: SyncReport.IntegrityIssue.Kind
        /// The device id on the remote.
        public var subject: String
        public var detail: String
        /// When a sync first found it.
        public var firstSeen: Date

        public init(kind: SyncReport.IntegrityIssue.Kind, subject: String, detail: String, firstSeen: Date) {
            self.kind = kind
            self.subject = subject
            self.detail = detail
            self.firstSeen = firstSeen
        }
    }
}
