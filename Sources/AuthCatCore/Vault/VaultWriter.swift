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
            sql: """
                INSERT INTO historyChange (transactionNumber, entity, recordID, kind, fields, label)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                number, change.entity.rawValue, change.recordID, change.kind.rawValue,
                String(decoding: try JSONEncoder().encode(change.fields), as: UTF8.self), change.label,
            ])
    }

    /// Runs `body` as a unit of its own inside this write (an SQLite
    /// savepoint): when it throws a name clash or a refused name, what it
    /// wrote is undone, the error is returned and the write goes on. Any
    /// other error is thrown. For changes that are applied one by one, each
    /// or none (a followed file's entries).
    public func ifAccepted(_ body: () throws -> Void) throws -> UserFacingError? {
        let openedBefore = transactionNumber
        var refusal: UserFacingError?
        try db.inSavepoint {
            do {
                try body()
                return .commit
            } catch let error as VaultStoreError where error.isAboutOneAccount {
                refusal = error
            } catch let error as VaultError where error.isAboutOneName {
                refusal = error
            }
            transactionNumber = openedBefore
            return .rollback
        }
        return refusal
    }

    private func openHistoryTransaction() throws -> Int64 {
        let device = author.device ?? DeviceReference(id: vault.identity.deviceID, name: vault.identity.deviceName)
        try db.execute(
            sql: """
                INSERT INTO historyTransaction (timestamp, author, deviceID, deviceName, source) VALUES (?, ?, ?, ?, ?)
                """,
            arguments: [now.unixMilliseconds, author.kind.rawValue, device.id, device.name, author.source])
        transactionNumber = db.lastInsertedRowID
        return db.lastInsertedRowID
    }
}

/// History of what is not a record of the vault: the sync key.
extension VaultWriter {
    /// Records that the sync key was rotated to `epoch`, revoking `revoked`
    /// (sync device ids and their names then): one transaction, one change
    /// for the rotation and one for each device revoked.
    public func recordSyncKeyRotation(epoch: Int64, revoked: [DeviceReference]) throws {
        try recordHistory(HistoryChange(entity: .syncKey, recordID: String(epoch), kind: .rotate, fields: []))
        for device in revoked {
            try recordHistory(
                HistoryChange(entity: .device, recordID: device.id, kind: .revoke, fields: [], label: device.name))
        }
    }
}

/// Reading inside the write transaction: every read goes through
/// `VaultReader` on the transaction's connection, so what a command reads
/// is what its write then changes.
extension VaultWriter {
    /// The one live account `query` names, as stored in this transaction.
    public func account(matching query: String) throws -> Account {
        try Vault.account(matching: query, in: db)
    }

    /// The one deleted account `query` names, as stored in this transaction.
    public func deletedAccount(matching query: String) throws -> Account {
        try Vault.deletedAccount(matching: query, in: db)
    }

    /// The account as stored now, deleted or not.
    public func account(_ id: UUID) throws -> Account? {
        try Vault.reader(db).account(id: id)
    }

    func existingRecord(_ id: UUID) throws -> AccountRecord {
        let reader = try Vault.reader(db)
        guard let account = try reader.account(id: id), let sealed = try reader.sealed(id: id) else {
            throw VaultError.notFound(id.vaultString)
        }
        return AccountRecord(account: account, sealedSecret: sealed.secret, sealedPIN: sealed.pin)
    }

    /// The PIN of account `id` as stored in this transaction; nil for kinds without one.
    public func pin(for id: UUID) throws -> SecretBytes? {
        try existingRecord(id).sealedPIN.map { try vault.openPIN($0, for: id) }
    }

    /// The number of the newest history transaction not written by `author`,
    /// as seen inside this write transaction (0 if there is none).
    ///
    /// A reader that acts on history can check, in the same transaction as
    /// its own writes, that nobody else wrote since it last looked.
    public func latestHistoryNumber(excluding author: HistoryAuthor.Kind) throws -> Int64 {
        try Int64.fetchOne(
            db, sql: "SELECT MAX(number) FROM historyTransaction WHERE author <> ?",
            arguments: [author.rawValue]) ?? 0
    }

    /// The secret of account `id`, decrypted, as stored in this transaction.
    public func secret(for id: UUID) throws -> SecretBytes {
        try vault.openSecret(try existingRecord(id).sealedSecret, for: id)
    }

    /// The live accounts as stored in this transaction (deleted ones too,
    /// when asked), sorted for display.
    public func accounts(includingDeleted: Bool) throws -> [Account] {
        try Vault.accounts(includingDeleted: includingDeleted, in: db)
    }

    /// The synced preferences as stored in this transaction.
    public func preferences() throws -> [String: String] {
        try Vault.preferences(db)
    }
}

extension VaultError {
    /// Whether the error refuses one name given to an account.
    fileprivate var isAboutOneName: Bool {
        switch self {
        case .notUTF8, .nameTooLong: true
        default: false
        }
    }
}
