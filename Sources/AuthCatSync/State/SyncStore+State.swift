import GRDB

extension SyncStore {
    /// Changes the state row in one transaction and returns the new state.
    @discardableResult
    func updateState(_ body: (inout SyncStore.StateRecord) throws -> Void) throws -> SyncStore.StateRecord {
        try write { db in
            var state = try Self.requiredState(db)
            try body(&state)
            try state.update(db)
            return state
        }
    }

    /// Replaces everything with a fresh state for a newly created or joined remote vault.
    func reset(to state: SyncStore.StateRecord) throws {
        try write { db in
            // The devices of another remote vault are no devices of this one; those of the same
            // vault (this device joining it again, as a new device) still are, revoked ones too.
            if let previous = try SyncStore.StateRecord.fetchOne(db), previous.remoteVaultID != state.remoteVaultID {
                try db.execute(sql: "DELETE FROM certifiedDevice; DELETE FROM revocation")
            }
            try db.execute(
                sql: "DELETE FROM peer; DELETE FROM record; DELETE FROM rejected; DELETE FROM issue; DELETE FROM state")
            try state.insert(db)
        }
    }
}
