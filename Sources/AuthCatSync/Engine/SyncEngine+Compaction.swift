import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncEngine {
    /// Syncs like `sync(progress:)`, then replaces this device's batches on
    /// the remote with one snapshot of every record it knows.
    ///
    /// An ordinary sync never does this, because a snapshot is as large as the
    /// whole vault: it is `sync watch`'s job while the vault is idle, or the
    /// user's (`authcat sync compact`). Compacting makes a new device's join
    /// and a long-absent device's catch-up read one object instead of many
    /// batches. Nothing is written when no batch was added since the last
    /// snapshot; `SyncReport.snapshotWritten` tells which happened.
    ///
    /// - Throws: `SyncError`, as `sync(progress:)` does. When the snapshot was
    ///   written but removing a covered object failed, the next compaction
    ///   removes it; other devices read the snapshot meanwhile.
    func compact(progress: ((SyncProgress) -> Void)? = nil) async throws -> SyncReport {
        try await run(progress: progress, compacting: true)
    }

    /// Writes a snapshot covering every batch of this device when asked to
    /// compact, or at once, as a repair, when its own objects were lost on the
    /// remote; then removes its batches and older snapshots that it covers.
    func snapshotIfAsked(_ run: SyncEngine.Run, compacting: Bool) async throws {
        guard let state = try store.state() else { return }
        let covered = state.nextSequence - 1
        guard covered > 0, run.forceSnapshot || (compacting && covered > state.snapshotSequence) else { return }
        run.progress?(SyncProgress(step: .compacting, completed: 0, total: 1))
        let records = try store.reading { try $0.allClocks() }
        let name = run.name(.snapshot(vault: run.vaultID, device: run.deviceID, sequence: covered))
        let changes = try makeChangeSet(
            records, snapshot: true, sequence: covered, previous: state.chainHead, name: deviceName(state),
            joinedAt: state.joinedAt, run)
        try await remote.put(name, data: try seal(changes, name: name, run))
        try store.updateState { $0.snapshotSequence = covered }
        run.report.snapshotWritten = true
        try await removeCovered(upTo: covered, run)
        run.progress?(SyncProgress(step: .compacting, completed: 1, total: 1))
    }

    private func removeCovered(upTo covered: Int64, _ run: SyncEngine.Run) async throws {
        let own = run.ownObjects
        let batches = own.batches.union(run.writtenBatches).filter { $0 <= covered }.sorted()
        for sequence in batches {
            try await remote.delete(run.name(.batch(vault: run.vaultID, device: run.deviceID, sequence: sequence)))
        }
        let snapshots = own.snapshots.filter { $0 < covered }.sorted()
        for sequence in snapshots {
            try await remote.delete(run.name(.snapshot(vault: run.vaultID, device: run.deviceID, sequence: sequence)))
        }
        run.report.objectsRemoved = batches.count + snapshots.count
    }
}
