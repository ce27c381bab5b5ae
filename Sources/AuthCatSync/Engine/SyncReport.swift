/// What one `SyncEngine.sync` did.
public struct SyncReport: Sendable, Equatable {
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
    public var issues: [SyncIntegrityIssue] = []
    /// Devices whose objects are on the remote, this one included.
    public var devicesSeen: [SyncDeviceSeen] = []
    /// Synced preferences that changed here, with the reason.
    public var preferenceChanges: [SyncPreferenceChange] = []
    /// Whether this sync wrote a snapshot (`SyncEngine.compact`, or a repair
    /// after this device's objects were lost on the remote).
    public var snapshotWritten = false
    /// This device's batches and older snapshots removed because a new snapshot covers them.
    public var objectsRemoved = 0
    /// Temporary files left on the remote by this device's killed syncs, removed by this one.
    public var temporariesRemoved = 0
    /// Batches this device has on the remote since its newest snapshot, after this sync.
    public var batchesSinceSnapshot: Int64 = 0

    public init() {}

    /// Whether enough batches piled up for `SyncEngine.compact` to be worth
    /// running (`SyncEngine.compactionThreshold`).
    public var compactionDue: Bool { batchesSinceSnapshot >= SyncEngine.compactionThreshold }

    /// The rejected objects among `issues`.
    public var rejectedObjects: [SyncIntegrityIssue] { issues.filter { $0.kind == .rejected || $0.kind == .replayed } }
    /// The rollback, gap and blocked-device warnings among `issues`.
    public var chainWarnings: [SyncIntegrityIssue] { issues.filter { [.rollback, .gap, .blocked].contains($0.kind) } }
}
