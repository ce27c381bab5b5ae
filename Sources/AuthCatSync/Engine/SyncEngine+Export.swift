import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncEngine {
    /// Exports every record with stamped local changes as one new batch; a
    /// new name of this device not sent yet makes one even without changes.
    func exportChanges(_ run: SyncEngine.Run) async throws {
        let (pending, renamed) = try store.transaction { db in
            let state = try stamp(db)
            return (
                try db.pendingClocks(),
                state.map(nameToAnnounce) ?? false
            )
        }
        guard !pending.isEmpty || renamed else { return }
        run.progress?(SyncProgress(step: .exporting, completed: 0, total: 1))
        for _ in 0..<3 {
            guard let state = try store.state() else { return }
            let sequence = try RemoteLayout.checkedNumber(state.nextSequence)
            let name = run.name(.batch(vault: run.vaultID, device: run.deviceID, sequence: sequence))
            let changes = try makeChangeSet(
                pending, snapshot: false, sequence: sequence, previous: state.chainHead, name: deviceName(state),
                joinedAt: state.joinedAt, run)
            let object = try seal(changes, name: name, run)
            if try await remote.create(name, data: object) {
                try store.transaction { db in
                    var state = try db.requiredState()
                    state.nextSequence = sequence + 1
                    state.chainHead = ObjectHash.of(object)
                    state.announcedName = changes.deviceName
                    try db.update(state)
                    for var record in pending {
                        record.pending = false
                        record.unexported = []
                        try db.update(record)
                    }
                }
                run.writtenBatches.append(sequence)
                run.report.exportedChanges += pending.count
                run.progress?(SyncProgress(step: .exporting, completed: 1, total: 1))
                return
            }
            try await adoptExisting(name, sequence: sequence, run)
        }
        throw SyncError(.integrity, "could not find a free batch number for this device on the remote; try again")
    }

    /// A batch of ours already under this number was written by a sync that
    /// was cut off before it could record it: take it into the chain and move
    /// on. Anything else there is not ours, and is reported.
    private func adoptExisting(_ name: String, sequence: Int64, _ run: SyncEngine.Run) async throws {
        guard let data = try await remote.get(name) else { return }
        do {
            let payload = try SealedObject.open(
                data, key: run.keys.objectKey, vault: run.vaultID, device: run.deviceID, name: name)
            _ = try ChangeSet.decode(
                payload, snapshot: false, vault: run.vaultID, device: run.deviceID, sequence: sequence)
        } catch {
            throw SyncError(
                .integrity,
                "the remote already holds \(name), and it is not a valid batch of this device; "
                    + "sync stopped so that nothing is overwritten")
        }
        try store.updateState {
            $0.nextSequence = sequence + 1
            $0.chainHead = ObjectHash.of(data)
        }
    }
}
