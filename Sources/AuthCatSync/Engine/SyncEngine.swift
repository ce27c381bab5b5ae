import AuthCatCore
import AuthCatEssentials
import Foundation

// A program drives sync through the service (Service/), the one door: it
// owns the run lock, the open `sync.sqlite` and the remote for a job, and
// opens a `SyncEngine` on them. The engine and setup never take the lock.

/// Keeps one vault in step with a remote vault shared by several devices.
///
/// A sync runs its stages in order, every one a value that owns its state
/// and returns its part of the report; none calls back into the engine:
///
/// 1. `LocalStamp` checks this device's clock and stamps local changes
///    (history since the last look, never the engine's own writes) with
///    hybrid-logical-clock times; the import and the export stamp again in
///    the transactions they write in;
/// 2. the remote is listed once, and `RotationFollowing` follows any key
///    rotation from the epoch this device holds (importing, when it adopts
///    one, what the epoch left holds up to the rotation's cut points);
/// 3. `RemoteCheck` checks the remote still holds this vault as it was left;
/// 4. `SyncImporter` imports every other device's new batches through the vault
///    store (author `sync`, so they show in history with the device they
///    came from), and the `ObjectFindings` are remembered;
/// 5. `SyncExporter` keeps this device's name unique and exports the stamped
///    local changes as one new batch;
/// 6. `Compactor` replaces this device's batches with a snapshot, when asked
///    or as a repair.
///
/// Steps 1–4 are the import phase and 5–6 the export phase of the monitor's
/// event log (`SyncEvent.Phase`).
final class SyncEngine: Sendable {
    let vault: Vault
    let remote: CountingRemote
    let recorder: SyncEventRecorder
    let clock: Clock
    let store: SyncStore

    init(vault: Vault, remote: any Remote, recorder: SyncEventRecorder, clock: Clock, store: SyncStore) {
        self.vault = vault
        self.remote = CountingRemote(remote)
        self.recorder = recorder
        self.clock = clock
        self.store = store
    }

    /// The engine for `vault`, or nil when sync is off on this device; for
    /// tests, which drive the engine without the service's run lock.
    ///
    /// - Throws: `SyncError` when sync was set up but its state is missing,
    ///   emptied or damaged: that is never "off".
    static func open(
        vault: Vault, remote: any Remote, recorder: SyncEventRecorder,
        clock: Clock = SystemClock()
    ) throws -> SyncEngine? {
        guard let (store, record) = try SyncState.look(in: vault.location).setUp(), record.enabled else { return nil }
        return SyncEngine(vault: vault, remote: remote, recorder: recorder, clock: clock, store: store)
    }

    /// Local changes not yet exported: stamped records waiting, plus history
    /// transactions since the last stamp.
    func pendingLocalChanges() throws -> Int {
        try SyncState.pendingLocalChanges(store: store, vault: vault)
    }

    /// This device's sync state, as the monitor shows it.
    func status() throws -> SyncLocalState {
        try SyncState.localState(in: vault.location, vault: vault)
    }

    var resources: SyncResources {
        SyncResources(vault: vault, store: store, remote: remote, clock: clock)
    }
}

extension SyncEngine {
    /// Pulls other devices' changes, then pushes this device's.
    ///
    /// Integrity problems with single objects are reported in the result and
    /// do not stop the rest. Throws `SyncError` when the remote cannot be used
    /// at all (unreachable, deleted, a different vault): local data is never
    /// touched because of anything remote.
    ///
    /// It writes at most one batch of this device's changes, never a snapshot
    /// of the whole vault (see `compact(progress:)`), except once as a repair
    /// after this device's own objects were lost on the remote.
    func sync(progress: ((SyncProgress) -> Void)? = nil) async throws -> SyncReport {
        try await run(progress: progress, compacting: false)
    }

    /// Syncs like `sync(progress:)`, then replaces this device's batches on
    /// the remote with one snapshot of every record it knows (`Compactor`).
    /// Nothing is written when no batch was added since the last snapshot;
    /// `SyncReport.snapshotWritten` tells which happened.
    func compact(progress: ((SyncProgress) -> Void)? = nil) async throws -> SyncReport {
        try await run(progress: progress, compacting: true)
    }

    /// One sync; with `compacting`, a snapshot follows the export. The
    /// caller holds the run lock (`SyncCoordinator.RunLock`) for the whole run.
    func run(progress: ((SyncProgress) -> Void)?, compacting: Bool) async throws -> SyncReport {
        remote.reset()
        let pulled = try await phase(.import) { try await pull(progress) }
        let pushed = try await phase(.export) { try await push(pulled, progress, compacting: compacting) }
        return report(pulled, pushed)
    }

    /// What the import phase leaves for the export phase and the report.
    private struct Pulled {
        let scope: SyncScope
        let imported: SyncImporter.Imported
        let issues: [SyncReport.IntegrityIssue]
        /// A snapshot must replace this device's batches now: its clock was
        /// repaired, or its own objects were lost on the remote.
        let needsSnapshot: Bool
    }

    /// Stamps local changes, lists the remote once, follows any rotation,
    /// checks the remote and imports what is new.
    private func pull(_ progress: ((SyncProgress) -> Void)?) async throws -> Pulled {
        guard let stored = try store.state(), stored.enabled else {
            throw SyncError.syncOff
        }
        let local = resources.localStamp
        let repairedClock = try local.repairPoisonedClock()
        try local.stamp()
        progress?(SyncProgress(step: .listing, completed: 0, total: 1))
        let objects = try await remote.list(prefix: "")
        let followed = try await RotationFollowing(resources: resources, progress: progress).follow(
            stored,
            keys: try SyncKeys.unsealLocally(
                stored.sealedMasterKey, vault: vault, remoteVaultID: stored.remoteVaultID, deviceID: stored.deviceID),
            objects: objects)
        let state = followed.state
        let scope = SyncScope(keys: followed.keys, state: state, listing: RemoteListing(objects, epoch: state.keyEpoch))
        var findings = try startingFindings(in: scope, carrying: followed)
        let checked = try await RemoteCheck(resources: resources, scope: scope).check(
            state, listed: objects, findings: &findings)
        // The importer carries the findings on: no copy stays behind to be added to in vain.
        var importer = SyncImporter(
            resources: resources, scope: scope, state: state, findings: consume findings, progress: progress)
        try await importer.catchUpOwnChain(state)
        try await importer.importChanges()
        try importer.findings.remember(in: store, now: clock.now().unixMilliseconds)
        return Pulled(
            scope: scope, imported: (followed.leftEpoch?.imported ?? SyncImporter.Imported()).adding(importer.imported),
            issues: importer.findings.issues, needsSnapshot: repairedClock || checked.ownObjectsLost)
    }

    /// The findings of this sync, starting with what following the rotation
    /// chain found: the issues of the epoch left, the rotation records not
    /// believed, and the epochs two valid records competed for.
    private func startingFindings(
        in scope: SyncScope, carrying followed: RotationFollowing.Followed
    ) throws -> ObjectFindings {
        var findings = try ObjectFindings(listing: scope.listing, store: store)
        findings.report(followed.leftEpoch?.issues ?? [])
        for (name, reason) in followed.rejected {
            findings.rejectedRotation(name, reason: reason)
        }
        for epoch in followed.conflicts {
            findings.issue(
                .rejected, "key epoch \(epoch)",
                "two valid rotation records move the vault to this epoch; the one with the smaller digest was taken")
        }
        return findings
    }

    /// What the export phase did.
    private struct Pushed {
        let exported: SyncExporter.Exported
        let compacted: Compactor.Compacted
        let devicesSeen: [SyncLocalState.DeviceSeen]
        let batchesSinceSnapshot: Int64
    }

    /// Exports local changes, compacts when asked or needed, and records the success.
    private func push(
        _ pulled: Pulled, _ progress: ((SyncProgress) -> Void)?, compacting: Bool
    ) async throws -> Pushed {
        let exported = try await SyncExporter(resources: resources, scope: pulled.scope, progress: progress).export()
        let compacted = try await Compactor(resources: resources, scope: pulled.scope, progress: progress).compact(
            asked: compacting, repairing: pulled.needsSnapshot, written: exported.batch)
        // Inside the phase, as every step that can fail: the monitor records a failure
        // here, never a success followed by an error.
        let devicesSeen = try devicesSeen(pulled.scope)
        let state = try store.updateState { $0.lastSuccessfulSync = self.clock.now().unixMilliseconds }
        return Pushed(
            exported: exported, compacted: compacted, devicesSeen: devicesSeen,
            batchesSinceSnapshot: state.batchesSinceSnapshot)
    }

    /// The devices whose objects this sync listed, as `sync devices` names them.
    private func devicesSeen(_ scope: SyncScope) throws -> [SyncLocalState.DeviceSeen] {
        let listed = scope.listing.devices[scope.vaultID] ?? [:]
        let state = try SyncStore.requiredState(store)
        return try DeviceDirectory.read(from: store, state: state, vaultDeviceName: vault.identity.deviceName)
            .devices.filter { listed[$0.id] != nil }
    }

    /// The report of one sync, from its phases' parts and the requests it made.
    private func report(_ pulled: Pulled, _ pushed: Pushed) -> SyncReport {
        var report = SyncReport()
        report.importedChanges = pulled.imported.importedChanges
        report.preferenceChanges = pulled.imported.preferenceChanges
        report.replacedEdits = pulled.imported.replacedEdits
        report.issues = pulled.issues
        report.exportedChanges = pushed.exported.exportedChanges
        report.deviceRenamed = pushed.exported.deviceRenamed
        report.snapshotWritten = pushed.compacted.snapshotWritten
        report.objectsRemoved = pushed.compacted.objectsRemoved
        report.devicesSeen = pushed.devicesSeen
        report.batchesSinceSnapshot = pushed.batchesSinceSnapshot
        let counts = remote.counts
        report.requests = counts.total
        report.objectsWritten = counts.put
        report.bytesWritten = counts.bytesWritten
        return report
    }

    /// Runs one phase between its start and end events.
    @discardableResult
    func phase<T>(_ phase: SyncEvent.Phase, _ body: () async throws -> T) async throws -> T {
        recorder.record(SyncEvent(phase: phase, kind: .started, time: clock.now()))
        do {
            let result = try await body()
            recorder.record(SyncEvent(phase: phase, kind: .succeeded, time: clock.now()))
            return result
        } catch {
            let failure = SyncError.wrapping(error)
            recorder.record(SyncEvent(phase: phase, kind: .failed, time: clock.now(), failure: failure.failure))
            throw failure
        }
    }
}
