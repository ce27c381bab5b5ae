import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncImporter {
    /// Merges a change set into the vault, then saves clocks and the peer's
    /// position. Returns false (reported) if the vault refused the records.
    ///
    /// One write transaction of the sync store holds the whole step: the
    /// stamp of local changes, the clocks read, the vault's own write
    /// transaction (the merge) and the clocks, state and `persist` saved
    /// after it. The sync store commits after the vault, as two separate
    /// files must: a kill in between leaves the vault merged and the position
    /// where it was, so the next sync reads the object again and merges it
    /// to the same values. Only syncs write the sync store, and they take
    /// turns under the run lock, so holding it never makes another process wait.
    ///
    /// A local change committed between the stamp and the merge's vault
    /// transaction (another process may write the vault at any time) must
    /// not be overwritten unseen: the merge finds it there
    /// (`SyncImporter.LocalChangesArrived`), and the step is tried again from a new stamp.
    /// That is the only retry, and it needs that race each time.
    mutating func apply(
        _ changes: ChangeSet, name: String, persist: (SyncStore.Transaction) throws -> Void
    ) throws -> Bool {
        for _ in 0..<5 {
            do {
                let session = try store.transaction { db in
                    guard let state = try resources.localStamp.stamp(db),
                        let cursor = state.stampCursor
                    else {
                        throw SyncStoreError.malformed("no state row")
                    }
                    let session = try merge(changes, db: db, state: state, cursor: cursor)
                    for key in session.touched { if let record = session.clocks[key] { try db.save(record) } }
                    var merged = state
                    merged.clock = session.hlc
                    merged.importedOnce = true
                    try db.update(merged)
                    try persist(db)
                    return session
                }
                imported.importedChanges += session.changedRecords
                imported.preferenceChanges += session.preferenceChanges
                imported.replacedEdits += try namingDevices(session.replacedEdits)
                return true
            } catch is SyncImporter.LocalChangesArrived {
                continue
            } catch let error as SyncObjectError {
                findings.issue(.rejected, name, error.description)
                return false
            } catch let error as UserFacingError
                where error is VaultError || error as? VaultStoreError ?? .busy != .busy
            {
                // Refused records (any vault error but `busy`, another process's lock, which is retried).
                findings.issue(.rejected, name, "the vault refused its records: \(error.description)")
                return false
            } catch let error as OTPParameterError {
                findings.issue(.rejected, name, error.description)
                return false
            }
        }
        throw SyncError.busy()
    }

    /// The replaced edits with the name each winning device gave in its newest batch read.
    private func namingDevices(_ edits: [SyncReport.ReplacedEdit]) throws -> [SyncReport.ReplacedEdit] {
        guard !edits.isEmpty else { return edits }
        return try store.reading { db in
            try edits.map { edit in
                var named = edit
                named.deviceName = try db.peer(edit.deviceID)?.name
                return named
            }
        }
    }

    private func merge(
        _ changes: ChangeSet, db: SyncStore.Transaction, state: SyncStore.StateRecord, cursor: Int64
    ) throws -> ImportSession {
        let keys =
            changes.accounts.map { SyncStore.ClockRecord.Key(entity: .account, recordID: $0.id) }
            + changes.preferences.map { SyncStore.ClockRecord.Key(entity: .preference, recordID: $0.key) }
        let clocks = try db.clocks(keys)
        // The writer's own word, shown by `history`: what would not show is written out (`<U+3164>`).
        let author = HistoryAuthor.sync(
            from: DeviceReference(id: changes.vaultDevice, name: DeviceName.escaped(changes.deviceName)))
        return try vault.write(author: author) { writer in
            guard try writer.latestHistoryNumber(excluding: .sync) <= cursor else {
                throw SyncImporter.LocalChangesArrived()
            }
            let session = try ImportSession(
                writer: writer, deviceID: state.deviceID, physicalNow: clock.now().unixMilliseconds,
                hlc: state.clock, clocks: clocks, preferenceReason: preferenceReason
            ) { key in
                try db.clock(key)
            }
            try session.apply(changes)
            return session
        }
    }
}

extension SyncImporter {
    /// The change sets `importWhole` reads before merging them, with their object names.
    final class CollectedChanges {
        var sets: [ChangeSet] = []
        var names: [String] = []

        func add(_ changes: ChangeSet, _ name: String) {
            sets.append(changes)
            names.append(name)
        }
    }
}

extension SyncImporter {
    /// Thrown inside an import transaction when the vault got local changes after
    /// they were last stamped: the import is rolled back, they are stamped, and
    /// the import is tried again, so an incoming value never silently overwrites
    /// a local change it has not been compared with.
    struct LocalChangesArrived: Error {}
}
