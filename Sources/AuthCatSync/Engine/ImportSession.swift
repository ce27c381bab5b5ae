import AuthCatCore
import AuthCatEssentials
import Foundation

/// Merges one incoming batch or snapshot into the vault, inside the vault
/// write transaction that records it under author `sync`.
///
/// Field-wise last writer wins by hybrid timestamp; the HOTP counter merges
/// as the maximum; deletion is an ordinary field, so a delete and a later
/// restore order like any other change. Label clashes are settled by rules
/// that depend only on the merged records, so every device settles them the
/// same way (docs/FORMAT.md §5.6).
final class ImportSession {
    let writer: VaultWriter
    let deviceID: String
    let physicalNow: Int64
    let preferenceReason: SyncReport.PreferenceChange.Reason
    var hlc: HybridLogicalClock
    /// Clock records read before the transaction, changed as records merge.
    var clocks: [SyncStore.ClockRecord.Key: SyncStore.ClockRecord]
    /// Reads a clock record the change set did not name (an account a clash touches).
    let loadClock: (SyncStore.ClockRecord.Key) throws -> SyncStore.ClockRecord?
    /// Records whose clocks changed and must be saved after the commit.
    var touched: Set<SyncStore.ClockRecord.Key> = []
    /// Live accounts by identity key, kept current as the merge goes.
    var liveByIdentity: [String: UUID] = [:]
    var preferences: [String: String] = [:]
    var changedRecords = 0
    var preferenceChanges: [SyncReport.PreferenceChange] = []
    /// This device's unexported edits that incoming changes replaced; device names are filled in later.
    var replacedEdits: [SyncReport.ReplacedEdit] = []

    init(
        writer: VaultWriter, deviceID: String, physicalNow: Int64, hlc: HybridLogicalClock,
        clocks: [SyncStore.ClockRecord.Key: SyncStore.ClockRecord],
        preferenceReason: SyncReport.PreferenceChange.Reason,
        loadClock: @escaping (SyncStore.ClockRecord.Key) throws -> SyncStore.ClockRecord?
    ) throws {
        self.writer = writer
        self.loadClock = loadClock
        self.deviceID = deviceID
        self.physicalNow = physicalNow
        self.hlc = hlc
        self.clocks = clocks
        self.preferenceReason = preferenceReason
        for account in try writer.accounts(includingDeleted: false) {
            liveByIdentity[account.identityKey] = account.id
        }
        preferences = try writer.preferences()
    }

    /// Applies every record of `changes`.
    func apply(_ changes: ChangeSet) throws {
        for account in changes.accounts { hlc.receive(account.latestClock) }
        for preference in changes.preferences { hlc.receive(preference.clock) }
        for account in changes.accounts { try apply(account) }
        for preference in changes.preferences { try apply(preference) }
    }

    /// A fresh timestamp of this device (a fallback for changes the merge
    /// itself makes; those are stamped by `HybridTimestamp.settling`).
    func tick() -> HybridTimestamp {
        hlc.tick(physical: physicalNow, device: deviceID)
    }

    func clockRecord(_ entity: SyncStore.ClockRecord.Entity, _ recordID: String) throws -> SyncStore.ClockRecord {
        let key = SyncStore.ClockRecord.Key(entity: entity, recordID: recordID)
        if let known = clocks[key] { return known }
        let loaded =
            try loadClock(key) ?? SyncStore.ClockRecord(entity: entity, recordID: recordID, clocks: [:], pending: false)
        clocks[key] = loaded
        return loaded
    }

    func save(_ record: SyncStore.ClockRecord) {
        clocks[record.key] = record
        touched.insert(record.key)
    }

    /// Records a change the merge made on its own (a clash settled), with
    /// the given field clocks, so it is exported.
    func markLocal(
        _ entity: SyncStore.ClockRecord.Entity, _ recordID: String, setting fields: [String: HybridTimestamp]
    ) throws {
        var record = try clockRecord(entity, recordID)
        record.clocks.merge(fields) { _, new in new }
        record.pending = true
        save(record)
    }
}

extension AccountState {
    var latestClock: HybridTimestamp { clocks.values.max() ?? HybridTimestamp(wall: 0, logical: 0, device: "") }
}

extension ImportSession {
    /// Takes an incoming preference if it is newer. A value that would break
    /// `PreferenceQuota` is refused here (nothing changes) and reported.
    func apply(_ incoming: PreferenceState) throws {
        var record = try clockRecord(.preference, incoming.key)
        if let local = record.clocks["value"], incoming.clock <= local { return }
        if preferences[incoming.key] != incoming.value {
            do {
                if let value = incoming.value {
                    try writer.setPreference(incoming.key, to: value)
                } else {
                    try writer.removePreference(incoming.key)
                }
            } catch is PreferenceError {
                preferenceChanges.append(SyncReport.PreferenceChange(key: incoming.key, reason: .quotaViolation))
                return
            }
            preferences[incoming.key] = incoming.value
            preferenceChanges.append(SyncReport.PreferenceChange(key: incoming.key, reason: preferenceReason))
            changedRecords += 1
        }
        record.clocks["value"] = incoming.clock
        save(record)
    }
}
