import AuthCatCore
import AuthCatEssentials
import Foundation

// The monitor's view of the store: what `sync status`, the notice and a
// sync's outcome show of this device's state. The store below knows nothing of it.
extension SyncState {
    /// This device's sync state as the monitor shows it; `.off` if sync was
    /// never set up; with `stateProblem` set when its state was lost.
    ///
    /// `pendingLocalChanges` is filled only when a vault is given.
    public static func localState(in location: VaultLocation, vault: Vault? = nil) throws -> SyncLocalState {
        try localState(look(in: location), in: location, vault: vault)
    }

    /// The monitor's view of what a look found.
    static func localState(_ standing: Standing, in location: VaultLocation, vault: Vault?) throws -> SyncLocalState {
        if let lost = standing.lost {
            var local = SyncLocalState.off
            local.remoteLocation = SyncState.SetupFile.read(in: location)?.remote
            local.stateProblem = lost.failure
            return local
        }
        guard let store = standing.store, let state = standing.record else { return .off }
        let devices = try DeviceDirectory.read(
            from: store, state: state, vaultDeviceName: vault?.identity.deviceName ?? "this device"
        ).devices
        return SyncLocalState(
            isEnabled: state.enabled, remoteLocation: state.remoteURL, remoteVaultID: state.remoteVaultID,
            lastSuccessfulSync: state.lastSuccessfulSync.map(Date.init(unixMilliseconds:)),
            pendingLocalChanges: try vault.map { try pendingLocalChanges(store: store, vault: $0) },
            batchesSinceSnapshot: state.batchesSinceSnapshot,
            rejectedObjects: try store.reading { try $0.rejections() }.map { SyncLocalState.RejectedObject($0) },
            standingIssues: try store.reading { try $0.issues() }.map { SyncLocalState.StandingIssue($0) },
            devicesSeen: devices, remoteDeleted: state.remoteDeleted, vaultMismatch: state.vaultMismatch,
            disabledEverywhere: state.disabledEverywhere, createOnlyEnforced: state.createOnlyEnforced,
            revoked: state.revoked)
    }

    /// Local changes not yet exported: stamped records waiting, plus history
    /// transactions since the last stamp.
    static func pendingLocalChanges(store: SyncStore, vault: Vault) throws -> Int {
        guard let state = try store.state() else { return 0 }
        let stamped = try store.reading { try $0.pendingCount() }
        guard let cursor = state.stampCursor else {
            return try vault.accounts(includingDeleted: true).count + vault.preferences().count
        }
        let unstamped = try vault.history(after: cursor).filter { $0.author != .sync }
        // A rotation in history is no record to export.
        let records = unstamped.flatMap { $0.changes.filter { [.account, .preference].contains($0.entity) } }
        return stamped + Set(records.map { "\($0.entity.rawValue)/\($0.recordID)" }).count
    }
}

extension SyncLocalState {
    /// The kind of remote (`folder`, `s3`, `webdav`, `rclone`), from its location.
    public var remoteKind: String? {
        remoteLocation.flatMap { try? RemoteLocation(parsing: $0).kind }
    }
}

extension SyncLocalState.RejectedObject {
    init(_ record: SyncStore.RejectedRecord) {
        self.init(
            name: record.name, kind: SyncReport.IntegrityIssue.Kind(rawValue: record.kind) ?? .rejected,
            detail: record.detail, firstSeen: Date(unixMilliseconds: record.firstSeen))
    }
}

extension SyncLocalState.StandingIssue {
    init(_ record: SyncStore.IssueRecord) {
        self.init(
            kind: SyncReport.IntegrityIssue.Kind(rawValue: record.kind) ?? .gap, subject: record.subject,
            detail: record.detail, firstSeen: Date(unixMilliseconds: record.firstSeen))
    }
}
