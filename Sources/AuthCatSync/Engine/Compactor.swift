import AuthCatCore
import AuthCatEssentials
import Foundation

/// The compaction stage: replaces this device's batches on the remote with
/// one snapshot of every record it knows (docs/FORMAT.md §5.4).
///
/// An ordinary sync never does this, because a snapshot is as large as the
/// whole vault: it is `sync watch`'s job while the vault is idle, or the
/// user's (`authcat sync compact`). Compacting makes a new device's join
/// and a long-absent device's catch-up read one object instead of many
/// batches. A sync also writes one at once, as a repair, when this device's
/// own objects were lost on the remote or its clock was poisoned: a fresh
/// snapshot lets the other devices step over the hole.
struct Compactor {
    let resources: SyncResources
    let scope: SyncScope
    let progress: ((SyncProgress) -> Void)?

    /// What the compaction did, for the report.
    struct Compacted {
        var snapshotWritten = false
        var objectsRemoved = 0
    }

    /// Writes a snapshot covering every batch of this device when `asked`
    /// and a batch was added since the last snapshot, or at once when
    /// `repairing`; then removes its batches (those listed and `written`
    /// in this sync) and older snapshots that it covers.
    ///
    /// - Throws: `SyncError`. When the snapshot was written but removing a
    ///   covered object failed, the next compaction removes it; other devices
    ///   read the snapshot meanwhile.
    func compact(asked: Bool, repairing: Bool, written: Int64?) async throws -> Compacted {
        let store = resources.store
        guard let state = try store.state() else { return Compacted() }
        let covered = state.nextSequence - 1
        guard covered > 0, repairing || (asked && covered > state.snapshotSequence) else { return Compacted() }
        progress?(SyncProgress(step: .compacting, completed: 0, total: 1))
        let records = try store.reading { try $0.allClocks() }
        let name = scope.name(.snapshot(vault: scope.vaultID, device: scope.deviceID, sequence: covered))
        let changes = try ChangeSetWriter(vault: resources.vault, clock: resources.clock, scope: scope)
            .changeSet(records, snapshot: true, sequence: covered, state: state)
        try await resources.remote.put(name, data: try scope.seal(changes, name: name))
        try store.updateState { $0.snapshotSequence = covered }
        let removed = try await removeCovered(upTo: covered, written: written)
        progress?(SyncProgress(step: .compacting, completed: 1, total: 1))
        return Compacted(snapshotWritten: true, objectsRemoved: removed)
    }

    /// Removes the objects the snapshot numbered `covered` replaces, and returns how many.
    private func removeCovered(upTo covered: Int64, written: Int64?) async throws -> Int {
        let own = scope.ownObjects
        let batches = own.batches.union(written.map { [$0] } ?? []).filter { $0 <= covered }.sorted()
        for sequence in batches {
            try await resources.remote.delete(
                scope.name(.batch(vault: scope.vaultID, device: scope.deviceID, sequence: sequence)))
        }
        let snapshots = own.snapshots.filter { $0 < covered }.sorted()
        for sequence in snapshots {
            try await resources.remote.delete(
                scope.name(.snapshot(vault: scope.vaultID, device: scope.deviceID, sequence: sequence)))
        }
        return batches.count + snapshots.count
    }
}
