import AuthCatEssentials
import Foundation
import GRDB

/// The changes of one write transaction. Every change made through it is
/// recorded in history, in the same SQLite transaction, under its author.
public final class VaultWriter {
    let db: Database
    let vault: Vault
    let author: HistoryAuthor
    /// When the transaction began: the time of every change in it.
    public let now: Date
    private var transactionNumber: Int64?

    init(db: Database, vault: Vault, author: HistoryAuthor) {
        self.db = db
        self.vault = vault
        self.author = author
        self.now = vault.clock.now()
    }

    /// Adds a change to history, opening the history transaction on the first one.
    func recordHistory(_ change: HistoryChange) throws {
        let number = try transactionNumber ?? openHistoryTransaction()
        try db.execute(
            sql: "INSERT INTO historyChange (transactionNumber, entity, recordID, kind, fields) VALUES (?, ?, ?, ?, ?)",
            arguments: [
                number, change.entity.rawValue, change.recordID, change.kind.rawValue,
                String(decoding: try JSONEncoder().encode(change.fields), as: UTF8.self),
            ])
    }

    private func openHistoryTransaction() throws -> Int64 {
        let device = author.device ?? DeviceReference(id: vault.identity.deviceID, name: vault.identity.deviceName)
        try db.execute(
            sql: "INSERT INTO historyTransaction (timestamp, author, deviceID, deviceName) VALUES (?, ?, ?, ?)",
            arguments: [now.unixMilliseconds, author.kind.rawValue, device.id, device.name])
        transactionNumber = db.lastInsertedRowID
        return db.lastInsertedRowID
    }
}

extension Vault {
    /// Runs `body` in one immediate write transaction: all its changes and
    /// their history commit together, or none of them do.
    ///
    /// The vault key is unlocked first, outside the transaction, since most
    /// writes seal secrets and a passphrase prompt must not hold the lock.
    @discardableResult
    public func write<T>(author: HistoryAuthor, _ body: (VaultWriter) throws -> T) throws -> T {
        try unlock()
        return try Self.translatingErrors(location) {
            try database.write { db in try body(VaultWriter(db: db, vault: self, author: author)) }
        }
    }
}
