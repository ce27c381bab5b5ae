import AuthCatEssentials
import Foundation
import GRDB

/// What `update` changes in an account; nil leaves a field as it is.
public struct AccountEdit: Sendable {
    public var issuer: String?
    public var name: String?
    public var otp: OTPParameters?
    public var tags: [String]?
    public var note: String?
    public var secret: SecretBytes?
    /// A new PIN (Yandex, mOTP); recorded in history as a change of `secret`.
    public var pin: SecretBytes?

    public init(
        issuer: String? = nil, name: String? = nil, otp: OTPParameters? = nil, tags: [String]? = nil,
        note: String? = nil, secret: SecretBytes? = nil, pin: SecretBytes? = nil
    ) {
        self.issuer = issuer
        self.name = name
        self.otp = otp
        self.tags = tags
        self.note = note
        self.secret = secret
        self.pin = pin
    }
}

extension VaultWriter {
    /// Adds a new account; throws `VaultStoreError.duplicate` if a live account has
    /// the same issuer and name, ignoring case.
    @discardableResult
    public func insert(_ draft: AccountDraft, id: UUID = UUID(), createdAt: Date? = nil) throws -> Account {
        try draft.otp.validate()
        let name = try Self.checkedName(draft.name)
        try checkGiven(draft.issuer, .issuer)
        try checkGiven(name, .name)
        let account = Account(
            id: id, issuer: draft.issuer, name: name, otp: draft.otp,
            tags: draft.tags, note: draft.note, createdAt: createdAt ?? now, updatedAt: now)
        try checkUnique(account)
        try newRecord(account, draft).insert(db)
        try recordHistory(
            HistoryChange(
                entity: .account, recordID: id.vaultString, kind: .insert,
                fields: AccountField.allCases.map(\.rawValue)))
        return account
    }

    /// Adds an account that is deleted from the start: a tombstone received
    /// from elsewhere. Unlike `insert`, it needs no unique label, since only
    /// live accounts must have one; `undelete` checks that later.
    @discardableResult
    public func insertDeleted(_ draft: AccountDraft, id: UUID, createdAt: Date? = nil) throws -> Account {
        try draft.otp.validate()
        let name = draft.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw VaultStoreError.emptyName }
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

    /// Changes the given fields of an account, deleted or not; records only
    /// the fields whose value really changed.
    @discardableResult
    public func update(_ id: UUID, _ edit: AccountEdit) throws -> Account {
        var record = try existingRecord(id)
        let before = record.account
        var account = before
        if let issuer = edit.issuer {
            try checkGiven(issuer, .issuer)
            account.issuer = issuer
        }
        if let name = edit.name {
            account.name = try Self.checkedName(name)
            try checkGiven(account.name, .name)
        }
        if let otp = edit.otp {
            try otp.validate()
            account.otp = otp
        }
        if let tags = edit.tags { account.tags = Account.normalizedTags(tags) }
        if let note = edit.note { account.note = note }
        var fields = Self.changedFields(before, account)
        var secretChanged = false
        if let secret = edit.secret, try vault.openSecret(record.sealedSecret, for: id) != secret {
            record.sealedSecret = try vault.seal(secret, for: id)
            secretChanged = true
        }
        record.account.otp = account.otp
        if try applyPIN(edit.pin, to: &record) { secretChanged = true }
        if secretChanged { fields.append(AccountField.secret.rawValue) }
        guard !fields.isEmpty else { return before }
        if account.identityKey != before.identityKey, account.deletedAt == nil { try checkUnique(account) }
        account.updatedAt = now
        record.account = account
        try record.update(db)
        try recordHistory(HistoryChange(entity: .account, recordID: id.vaultString, kind: .update, fields: fields))
        return account
    }

    /// Marks an account deleted. Its sealed secret stays, so `undelete` can bring it back.
    /// - Returns: false when the account was deleted already, and nothing changed.
    @discardableResult
    public func delete(_ id: UUID) throws -> Bool {
        var record = try existingRecord(id)
        guard record.account.deletedAt == nil else { return false }
        record.account.deletedAt = now
        record.account.updatedAt = now
        try record.update(db)
        try recordHistory(HistoryChange(entity: .account, recordID: id.vaultString, kind: .delete, fields: []))
        return true
    }

    /// Brings a deleted account back as it was, unless a live account now has
    /// its name. For replaying a restore made elsewhere (sync); a user's
    /// restore is `restore(_:)`.
    @discardableResult
    public func undelete(_ id: UUID) throws -> Account {
        try bringBack(id, raisingCounter: false)
    }

    /// What `authcat restore` does: `undelete`, except that an HOTP account
    /// comes back with its counter raised to the highest counter of any other
    /// account, live or deleted, holding the same secret, so that no counter
    /// value used meanwhile is handed out again.
    @discardableResult
    public func restore(_ id: UUID) throws -> Account {
        try bringBack(id, raisingCounter: true)
    }

    private func bringBack(_ id: UUID, raisingCounter: Bool) throws -> Account {
        var record = try existingRecord(id)
        guard record.account.deletedAt != nil else { throw VaultStoreError.notDeleted(record.account.label) }
        try checkUnique(record.account)
        if raisingCounter, record.account.otp.kind == .hotp {
            record.account.otp.counter = try highestCounter(sharingSecretWith: id, from: record.account.otp.counter)
        }
        record.account.deletedAt = nil
        record.account.updatedAt = now
        try record.update(db)
        try recordHistory(
            HistoryChange(
                entity: .account, recordID: id.vaultString, kind: .insert, fields: AccountField.allCases.map(\.rawValue)
            ))
        return record.account
    }

    /// `counter`, or the higher HOTP counter of another account, live or
    /// deleted, with the same secret: a copy merged away as a duplicate by
    /// sync, or an account removed and then added again, kept counting.
    private func highestCounter(sharingSecretWith id: UUID, from counter: UInt64) throws -> UInt64 {
        var highest = counter
        var secret: SecretBytes?
        let candidates = try accounts(includingDeleted: true).filter { $0.id != id && $0.otp.kind == .hotp }
        for other in candidates where other.otp.counter > highest {
            let own = try secret ?? self.secret(for: id)
            secret = own
            if try self.secret(for: other.id) == own { highest = other.otp.counter }
        }
        return highest
    }

    /// The row for a new account: `draft`'s secret and PIN sealed, after
    /// checking that it has a PIN exactly when its kind needs one.
    func newRecord(_ account: Account, _ draft: AccountDraft) throws -> AccountRecord {
        try draft.checkPIN()
        return AccountRecord(
            account: account, sealedSecret: try vault.seal(draft.secret, for: account.id),
            sealedPIN: try draft.pin.map { try vault.sealPIN($0, for: account.id) })
    }

    /// Applies an edit's PIN to `record`, whose account already has the
    /// edited parameters: seals a new PIN, drops the PIN of a kind without
    /// one. - Returns: whether the stored PIN changed.
    func applyPIN(_ pin: SecretBytes?, to record: inout AccountRecord) throws -> Bool {
        let id = record.account.id
        guard record.account.otp.kind.needsPIN else {
            guard pin == nil else { throw OTPPINError.unexpected(record.account.otp.kind) }
            defer { record.sealedPIN = nil }
            return record.sealedPIN != nil
        }
        guard let pin else {
            guard record.sealedPIN != nil else { throw OTPParameterError.missingPIN(record.account.otp.kind) }
            return false
        }
        try OTPPIN.check(pin)
        if let sealed = record.sealedPIN, try vault.openPIN(sealed, for: id) == pin { return false }
        record.sealedPIN = try vault.sealPIN(pin, for: id)
        return true
    }

    /// Sync applies what other devices wrote and resolves clashes of issuer
    /// and name itself (`ImportSession`); a same-label pair it brings stays
    /// reachable by id. Every other author is held to the label rule.
    private func checkUnique(_ account: Account) throws {
        let keys = author.kind == .sync ? [account.identityKey] : Account.identityKeys(forLabel: account.label)
        try Self.checkNameIsFree(identityKeys: keys, label: account.label, except: account.id, in: db)
    }

    /// Throws `VaultStoreError.duplicate` when a live account other than `except`
    /// has one of these identity keys: those of every account with the
    /// label `label`, case ignored (`Account.identityKeys(forLabel:)`), so
    /// that no two accounts share a label the lookup cannot tell apart (the
    /// name `GitHub:carl` without an issuer, and `carl` at GitHub). The one
    /// rule, which writes apply in their transaction and
    /// `Vault.checkNameIsFree` applies before a write, to say so early.
    static func checkNameIsFree(identityKeys: [String], label: String, except id: UUID?, in db: Database) throws {
        let placeholders = Array(repeating: "?", count: identityKeys.count).joined(separator: ", ")
        // `IS NOT NULL` when no account is excepted: any live account clashes.
        let values: [(any DatabaseValueConvertible)?] = identityKeys.map { $0 } + [id?.vaultString]
        let clash = try String.fetchOne(
            db,
            sql: """
                SELECT id FROM account WHERE identityKey IN (\(placeholders)) AND deletedAt IS NULL AND id IS NOT ?
                """, arguments: StatementArguments(values))
        if clash != nil { throw VaultStoreError.duplicate(label) }
    }

    /// An issuer or name the user gives (`add`, `edit`, an import) is held
    /// to `AccountNameRule`; what sync and restores bring back is what the
    /// vault once held, and is kept as it is.
    private func checkGiven(_ text: String, _ field: VaultError.NameField) throws {
        guard author.kind == .cli || author.kind == .import else { return }
        try AccountNameRule.check(text, field: field)
    }

    private static func checkedName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw VaultStoreError.emptyName }
        return trimmed
    }

    private static func changedFields(_ a: Account, _ b: Account) -> [String] {
        var fields: [AccountField] = []
        if a.issuer != b.issuer { fields.append(.issuer) }
        if a.name != b.name { fields.append(.name) }
        if a.otp.kind != b.otp.kind { fields.append(.kind) }
        if a.otp.algorithm != b.otp.algorithm { fields.append(.algorithm) }
        if a.otp.digits != b.otp.digits { fields.append(.digits) }
        if a.otp.period != b.otp.period { fields.append(.period) }
        if a.otp.counter != b.otp.counter { fields.append(.counter) }
        if a.tags != b.tags { fields.append(.tags) }
        if a.note != b.note { fields.append(.note) }
        return fields.map(\.rawValue)
    }
}
