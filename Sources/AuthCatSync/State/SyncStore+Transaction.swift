import Foundation
import GRDB

extension SyncStore {
    /// One transaction of `sync.sqlite`, offering what a step reads and writes
    /// in it: a step that must read and write atomically (a merge with its
    /// clocks and position, an export's bookkeeping, a rotation adopted) runs
    /// in one `SyncStore.transaction`; nothing outside this folder sees SQL.
    struct Transaction {
        fileprivate let db: Database

        // MARK: The state row

        /// The state row, or nil if sync was never set up.
        func state() throws -> SyncStore.StateRecord? {
            try SyncStore.StateRecord.fetchOne(db)
        }

        /// The state row, which must exist.
        func requiredState() throws -> SyncStore.StateRecord {
            try SyncStore.requiredState(db)
        }

        func update(_ state: SyncStore.StateRecord) throws {
            try state.update(db)
        }

        // MARK: Field clocks

        /// The clock record of one synced record, if it has one.
        func clock(_ key: SyncStore.ClockRecord.Key) throws -> SyncStore.ClockRecord? {
            try SyncStore.ClockRecord.fetchOne(db, key: ["entity": key.entity.rawValue, "recordID": key.recordID])
        }

        /// The clock records with these keys, by key.
        func clocks(
            _ keys: [SyncStore.ClockRecord.Key]
        ) throws -> [SyncStore.ClockRecord.Key: SyncStore.ClockRecord] {
            var found: [SyncStore.ClockRecord.Key: SyncStore.ClockRecord] = [:]
            for key in keys {
                if let record = try clock(key) { found[key] = record }
            }
            return found
        }

        /// Every clock record.
        func allClocks() throws -> [SyncStore.ClockRecord] {
            try SyncStore.ClockRecord.fetchAll(db)
        }

        /// The records with local changes not yet exported.
        func pendingClocks() throws -> [SyncStore.ClockRecord] {
            try SyncStore.ClockRecord.filter(sql: "pending = 1").fetchAll(db)
        }

        /// Inserts or replaces a clock record.
        func save(_ record: SyncStore.ClockRecord) throws {
            try record.save(db)
        }

        /// Replaces a clock record that exists.
        func update(_ record: SyncStore.ClockRecord) throws {
            try record.update(db)
        }

        // MARK: Other devices

        /// Where this device stands in another device's chain, if it read any of it.
        func peer(_ deviceID: String) throws -> SyncStore.PeerRecord? {
            try SyncStore.PeerRecord.fetchOne(db, key: deviceID)
        }

        /// Every device whose chain this device read, this one among them when it caught up its own.
        func peers() throws -> [SyncStore.PeerRecord] {
            try SyncStore.PeerRecord.fetchAll(db)
        }

        /// The devices of which at least one object opened here.
        func peersSeen() throws -> [SyncStore.PeerRecord] {
            try SyncStore.PeerRecord.filter(Column("seenSequence") > 0).fetchAll(db)
        }

        func save(_ peer: SyncStore.PeerRecord) throws {
            try peer.save(db)
        }

        func certifiedDevices() throws -> [SyncStore.CertifiedDeviceRecord] {
            try SyncStore.CertifiedDeviceRecord.fetchAll(db)
        }

        func save(_ certified: SyncStore.CertifiedDeviceRecord) throws {
            try certified.save(db)
        }

        func revocations() throws -> [SyncStore.RevocationRecord] {
            try SyncStore.RevocationRecord.fetchAll(db)
        }

        func save(_ revocation: SyncStore.RevocationRecord) throws {
            try revocation.save(db)
        }

        /// Starts every chain afresh for a new key epoch: every other device's
        /// position at its start, every record marked for export, and the
        /// certificates of devices not in `kept` forgotten (they are read
        /// again against the new authority).
        func restartChains(keepingCertified kept: Set<String>) throws {
            try db.execute(sql: "UPDATE peer SET sequence = 0, chainHash = '', seenSequence = 0")
            try db.execute(sql: "UPDATE record SET pending = 1")
            for certified in try certifiedDevices() where !kept.contains(certified.deviceID) {
                try certified.delete(db)
            }
        }

        // MARK: What the monitor shows

        /// The remembered rejections, by name order.
        func rejections() throws -> [SyncStore.RejectedRecord] {
            try SyncStore.RejectedRecord.order(Column("name")).fetchAll(db)
        }

        func replaceRejections(with records: some Sequence<SyncStore.RejectedRecord>) throws {
            try SyncStore.RejectedRecord.deleteAll(db)
            for record in records { try record.insert(db) }
        }

        /// The standing issues, by kind and subject.
        func issues() throws -> [SyncStore.IssueRecord] {
            try SyncStore.IssueRecord.order(Column("kind"), Column("subject")).fetchAll(db)
        }

        func replaceIssues(with records: some Sequence<SyncStore.IssueRecord>) throws {
            try SyncStore.IssueRecord.deleteAll(db)
            for record in records { try record.insert(db) }
        }

        /// How many records wait for export.
        func pendingCount() throws -> Int {
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE pending = 1") ?? 0
        }
    }

    /// Runs `body` in one write transaction: everything it does commits together or not at all.
    func transaction<T>(_ body: (Transaction) throws -> T) throws -> T {
        try write { try body(Transaction(db: $0)) }
    }

    /// Runs `body` in one read transaction, so that what it reads is consistent.
    func reading<T>(_ body: (Transaction) throws -> T) throws -> T {
        try read { try body(Transaction(db: $0)) }
    }
}
