import AuthCatCore
import AuthCatEssentials
import Foundation

/// The first stage of a sync: gives every local change since the last
/// look a hybrid-logical-clock time and marks its record for export
/// (docs/FORMAT.md §5.6). The import stamps again inside each of its
/// transactions, and the export before it writes, so that no local change
/// slips between a stamp and a write.
struct LocalStamp {
    let vault: Vault
    let store: SyncStore
    let clock: Clock

    /// Gives every local change since the last stamp a clock and marks its
    /// record for export. Changes written by sync itself are skipped, so
    /// nothing imported is ever echoed back.
    ///
    /// The first stamp after joining a remote vault takes the whole vault, so
    /// that accounts added before sync was on are exported too.
    func stamp() throws {
        _ = try store.transaction { try stamp($0) }
    }

    /// Stamps inside the caller's write transaction of the sync store, and
    /// returns the state as it leaves it (nil when sync was never set up).
    @discardableResult
    func stamp(_ db: SyncStore.Transaction) throws -> SyncStore.StateRecord? {
        guard var state = try db.state() else { return nil }
        if let cursor = state.stampCursor {
            let entries = try vault.history(after: cursor)
            guard let last = entries.last else { return state }
            var hlc = state.clock
            for entry in entries where entry.author != .sync {
                let time = hlc.tick(physical: entry.timestamp.unixMilliseconds, device: state.deviceID)
                for change in entry.changes {
                    try stamp(db, change, at: time)
                }
            }
            state.clock = hlc
            state.stampCursor = last.number
        } else {
            try stampEverything(db, &state)
        }
        try db.update(state)
        return state
    }

    private func stampEverything(_ db: SyncStore.Transaction, _ state: inout SyncStore.StateRecord) throws {
        let cursor = try vault.latestHistoryNumber()
        let accounts = try vault.accounts(includingDeleted: true)
        let preferences = try vault.preferences()
        let now = clock.now().unixMilliseconds
        var hlc = state.clock
        for account in accounts {
            let time = hlc.tick(physical: account.updatedAt.unixMilliseconds, device: state.deviceID)
            try Self.mark(
                db, .account, account.id.vaultString, fields: AccountState.clockedFields, at: time,
                keepExisting: true)
        }
        for key in preferences.keys.sorted() {
            let time = hlc.tick(physical: now, device: state.deviceID)
            try Self.mark(db, .preference, key, fields: ["value"], at: time, keepExisting: true)
        }
        state.clock = hlc
        state.stampCursor = cursor
    }

    private func stamp(_ db: SyncStore.Transaction, _ change: HistoryChange, at time: HybridTimestamp) throws {
        switch change.entity {
        case .preference:
            try Self.mark(db, .preference, change.recordID, fields: ["value"], at: time, keepExisting: false)
        case .account:
            let known =
                try db.clock(SyncStore.ClockRecord.Key(entity: .account, recordID: change.recordID)) != nil
            try Self.mark(
                db, .account, change.recordID, fields: Self.clockedFields(of: change, known: known),
                at: time, keepExisting: false)
        case .syncKey, .device:
            // A rotation recorded in history: sync's own doing, not a record to export.
            break
        }
    }

    /// The account fields a history change sets. An insert of an account
    /// already known is `restore` bringing it back: only its deletion changed.
    static func clockedFields(of change: HistoryChange, known: Bool) -> [String] {
        switch change.kind {
        case .insert: return known ? ["deleted"] : AccountState.clockedFields
        case .delete: return ["deleted"]
        case .rotate, .revoke: return []
        case .update:
            return Array(
                Set(
                    change.fields.compactMap { field -> String? in
                        switch AccountField(rawValue: field) {
                        case .kind, .algorithm, .digits, .period: "otp"
                        // The counter has no clock: it merges as a maximum. The record is still marked pending.
                        case .counter, .none: nil
                        case .issuer, .name, .secret, .tags, .note: field
                        }
                    })
            ).sorted()
        }
    }

    /// Sets `fields`' clocks to `time` (or, with `keepExisting`, only those
    /// without one) and marks the record pending export.
    static func mark(
        _ db: SyncStore.Transaction, _ entity: SyncStore.ClockRecord.Entity, _ recordID: String, fields: [String],
        at time: HybridTimestamp, keepExisting: Bool
    ) throws {
        var record =
            try db.clock(SyncStore.ClockRecord.Key(entity: entity, recordID: recordID))
            ?? SyncStore.ClockRecord(entity: entity, recordID: recordID, clocks: [:], pending: true)
        for field in fields where !(keepExisting && record.clocks[field] != nil) {
            record.clocks[field] = time
            record.unexported.insert(field)
        }
        record.pending = true
        try db.save(record)
    }
}
