import AuthCatCore
import AuthCatEssentials
import Foundation

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

    /// One sync; with `compacting`, a snapshot follows the export. The
    /// caller holds the run lock (`SyncCoordinator.RunLock`) for the whole run.
    func run(progress: ((SyncProgress) -> Void)?, compacting: Bool) async throws -> SyncReport {
        remote.reset()
        let run = try await phase(.import) { try await self.pull(progress) }
        try await phase(.export) {
            try self.settleName(run)
            try await self.exportChanges(run)
            try await self.snapshotIfAsked(run, compacting: compacting)
            // Inside the phase, as every step that can fail: the monitor records a failure
            // here, never a success followed by an error.
            run.report.devicesSeen = try self.devicesSeen(run)
            let state = try self.store.updateState { $0.lastSuccessfulSync = self.clock.now().unixMilliseconds }
            run.report.batchesSinceSnapshot = state.batchesSinceSnapshot
        }
        let counts = remote.counts
        run.report.requests = counts.total
        run.report.objectsWritten = counts.put
        run.report.bytesWritten = counts.bytesWritten
        return run.report
    }

    /// Lists the remote once, checks it, and imports what is new.
    private func pull(_ progress: ((SyncProgress) -> Void)?) async throws -> SyncEngine.Run {
        guard let stored = try store.state(), stored.enabled else {
            throw SyncError.syncOff
        }
        let repairedClock = try repairPoisonedClock()
        try stamp()
        progress?(SyncProgress(step: .listing, completed: 0, total: 1))
        let objects = try await remote.list(prefix: "")
        let followed = try await followRotations(
            stored,
            keys: try SyncKeys.unsealLocally(
                stored.sealedMasterKey, vault: vault, remoteVaultID: stored.remoteVaultID, deviceID: stored.deviceID),
            objects: objects, progress: progress)
        let state = followed.state
        let run = SyncEngine.Run(
            keys: followed.keys, state: state, listing: RemoteListing(objects, epoch: state.keyEpoch),
            progress: progress)
        run.forceSnapshot = repairedClock
        run.rejectedBefore = try knownRejections()
        run.carry(followed)
        try await checkRemote(run)
        try await recordCertifiedDevices(run, listed: objects)
        let own = run.ownObjects.newest
        if own < state.nextSequence - 1 {
            run.issue(
                .rollback, run.deviceID,
                "this device's newest object on the remote is number \(own), "
                    + "but it wrote number \(state.nextSequence - 1)")
            run.forceSnapshot = true
        }
        try await catchUpOwnChain(state, run)
        try await importChanges(run)
        try rememberRejections(run)
        try rememberIssues(run)
        return run
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

    /// The devices whose objects this sync listed, as `sync devices` names them.
    private func devicesSeen(_ run: SyncEngine.Run) throws -> [SyncLocalState.DeviceSeen] {
        let listed = run.listing.devices[run.vaultID] ?? [:]
        let state = try SyncStore.requiredState(store)
        return try DeviceDirectory.read(from: store, state: state, vaultDeviceName: vault.identity.deviceName)
            .devices.filter { listed[$0.id] != nil }
    }
}
