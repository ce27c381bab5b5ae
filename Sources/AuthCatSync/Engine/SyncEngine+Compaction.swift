import AuthCatCore
import Foundation
import GRDB

extension SyncEngine {
    /// After `compactionThreshold` batches since the last snapshot, writes a
    /// snapshot of every record this device knows and removes its own batches
    /// and older snapshots that the new snapshot covers. Also done at once when
    /// this device's objects were lost on the remote.
    func compactIfNeeded(_ run: SyncRun) async throws {
        guard let state = try store.state() else { return }
        let covered = state.nextSequence - 1
        guard covered > 0, run.forceSnapshot || covered - state.snapshotSequence >= Self.compactionThreshold else { return }
        run.progress?(SyncProgress(step: .compacting, completed: 0, total: 1))
        let records = try store.read { try SyncClockRecord.fetchAll($0) }
        let name = RemoteLayout.snapshot(run.vaultID, device: run.deviceID, sequence: covered)
        let changes = try makeChangeSet(records, snapshot: true, sequence: covered, previous: state.chainHead, run)
        try await remote.put(name, data: try seal(changes, name: name, run))
        try store.updateState { $0.snapshotSequence = covered }
        let own = run.ownObjects
        let batches = own.batches.union(run.writtenBatches).filter { $0 <= covered }.sorted()
        for sequence in batches {
            try await remote.delete(RemoteLayout.batch(run.vaultID, device: run.deviceID, sequence: sequence))
        }
        for sequence in own.snapshots.filter({ $0 < covered }).sorted() {
            try await remote.delete(RemoteLayout.snapshot(run.vaultID, device: run.deviceID, sequence: sequence))
        }
        run.progress?(SyncProgress(step: .compacting, completed: 1, total: 1))
    }
}
