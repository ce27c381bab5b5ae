import AuthCatCore
import AuthCatEssentials
import Foundation

/// The export stage: settles this device's name among the others', then
/// writes every record with stamped local changes as one new batch of its
/// chain (docs/FORMAT.md §5.4). A name not sent yet makes a batch even
/// without changes.
struct SyncExporter {
    let resources: SyncResources
    let scope: SyncScope
    let progress: ((SyncProgress) -> Void)?

    /// What the export did, for the report.
    struct Exported {
        var exportedChanges = 0
        /// The batch written, if any: the compaction removes it too.
        var batch: Int64?
        var deviceRenamed: DeviceRename?
    }

    func export() async throws -> Exported {
        var exported = Exported()
        exported.deviceRenamed = try settleName()
        let (pending, renamed) = try resources.store.transaction { db in
            let state = try resources.localStamp.stamp(db)
            return (try db.pendingClocks(), state.map(Self.nameToAnnounce) ?? false)
        }
        guard !pending.isEmpty || renamed else { return exported }
        progress?(SyncProgress(step: .exporting, completed: 0, total: 1))
        for _ in 0..<3 {
            guard let state = try resources.store.state() else { return exported }
            let sequence = try RemoteLayout.checkedNumber(state.nextSequence)
            let name = scope.name(.batch(vault: scope.vaultID, device: scope.deviceID, sequence: sequence))
            let changes = try writer.changeSet(pending, snapshot: false, sequence: sequence, state: state)
            let object = try scope.seal(changes, name: name)
            if try await resources.remote.create(name, data: object) {
                try record(batch: sequence, object: object, name: changes.deviceName, exported: pending)
                exported.batch = sequence
                exported.exportedChanges = pending.count
                progress?(SyncProgress(step: .exporting, completed: 1, total: 1))
                return exported
            }
            try await adoptExisting(name, sequence: sequence)
        }
        throw SyncError(.integrity, "could not find a free batch number for this device on the remote; try again")
    }

    private var writer: ChangeSetWriter {
        ChangeSetWriter(vault: resources.vault, clock: resources.clock, scope: scope)
    }

    /// Moves the chain past the batch written, and clears what it carried from the records.
    private func record(
        batch sequence: Int64, object: Data, name: String, exported records: [SyncStore.ClockRecord]
    ) throws {
        try resources.store.transaction { db in
            var state = try db.requiredState()
            state.nextSequence = sequence + 1
            state.chainHead = ObjectHash.of(object)
            state.announcedName = name
            try db.update(state)
            for var record in records {
                record.pending = false
                record.unexported = []
                try db.update(record)
            }
        }
    }

    /// A batch of ours already under this number was written by a sync that
    /// was cut off before it could record it: take it into the chain and move
    /// on. Anything else there is not ours, and is reported.
    private func adoptExisting(_ name: String, sequence: Int64) async throws {
        guard let data = try await resources.remote.get(name) else { return }
        do {
            let payload = try SealedObject.open(
                data, key: scope.keys.objectKey, vault: scope.vaultID, device: scope.deviceID, name: name)
            _ = try ChangeSet.decode(
                payload, snapshot: false, vault: scope.vaultID, device: scope.deviceID, sequence: sequence)
        } catch {
            throw SyncError(
                .integrity,
                "the remote already holds \(name), and it is not a valid batch of this device; "
                    + "sync stopped so that nothing is overwritten")
        }
        try resources.store.updateState {
            $0.nextSequence = sequence + 1
            $0.chainHead = ObjectHash.of(data)
        }
    }
}

extension SyncExporter {
    /// Whether this device was renamed since its newest batch: a sync then
    /// writes a batch even when nothing else changed, so that the others
    /// learn it. A device that has written nothing yet (it has just
    /// joined) announces its name at once, so that the others can name it,
    /// and revoke it by that name, before it has changed anything.
    static func nameToAnnounce(_ state: SyncStore.StateRecord) -> Bool {
        state.deviceName != nil && state.deviceName != state.announcedName
    }

    /// Keeps this device's name unique among the devices of the remote vault,
    /// once this sync has read their newest names (docs/FORMAT.md §5.9.1),
    /// and returns the rename, if any.
    ///
    /// A name another device already carries is taken with the first free
    /// suffix (`vm-2`) before it goes out: the device that joins (or
    /// renames) later yields. Two devices that sent one name at the same
    /// moment both see the clash afterwards; the one with the larger id yields.
    private func settleName() throws -> DeviceRename? {
        let store = resources.store
        let state = try SyncStore.requiredState(store)
        let name = writer.deviceName(state)
        let others = try DeviceDirectory.read(from: store, state: state, vaultDeviceName: name).devices.filter {
            !$0.isThisDevice
        }
        // A name too like another's to tell apart clashes as the same name would.
        let clashing = others.filter { $0.name.map { DeviceName.isConfusable($0, with: name) } == true }
        guard !clashing.isEmpty else { return nil }
        let announced = state.deviceName == nil || state.announcedName == name
        if announced, clashing.allSatisfy({ $0.id > state.deviceID }) { return nil }
        let unique = DeviceName.unique(name, avoiding: Set(others.compactMap(\.name)))
        try store.updateState { $0.deviceName = unique }
        return DeviceRename(from: name, to: unique)
    }
}
