import AuthCatEssentials
import Foundation
import GRDB

extension VaultWriter {
    /// Adds an account that is deleted from the start: a tombstone received
    /// from elsewhere. Unlike `insert`, it needs no unique label, since only
    /// live accounts must have one; `undelete` checks that later.
    @discardableResult
    public func insertDeleted(_ draft: AccountDraft, id: UUID, createdAt: Date? = nil) throws -> Account {
        try draft.otp.validate()
        let name = draft.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw VaultError.emptyName }
        let account = Account(
            id: id, issuer: draft.issuer, name: name, otp: draft.otp, tags: draft.tags,
            note: draft.note, createdAt: createdAt ?? now, updatedAt: now, deletedAt: now)
        try newRecord(account, draft).insert(db)
        try recordHistory(
            HistoryChange(
                entity: .account, recordID: id.vaultString, kind: .insert,
                fields: AccountField.allCases.map(\.rawValue)))
        try recordHistory(HistoryChange(entity: .account, recordID: id.vaultString, kind: .delete, fields: []))
        return account
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
