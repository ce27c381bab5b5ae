import AuthCatCore
import AuthCatEssentials
import Foundation

extension ImportSession {
    /// Merges one incoming account into the vault.
    func apply(_ incoming: AccountState) throws {
        guard let id = UUID(uuidString: incoming.id) else { throw SyncObjectError.malformed("account id") }
        var record = try clockRecord(.account, incoming.id)
        let local = try writer.account(id)
        var merged = try merge(incoming, into: local, record: &record)
        if !merged.deleted { try settleClash(&merged, record: &record) }
        try write(merged, over: local)
        noteReplacedEdits(of: merged.account, record: &record, incoming: incoming)
        save(record)
    }

    /// Records each field this device changed offline whose clock is now the
    /// incoming one: a newer change from another device replaced the edit.
    private func noteReplacedEdits(
        of account: Account, record: inout SyncStore.ClockRecord, incoming: AccountState
    ) {
        for field in record.unexported.sorted() {
            guard let clock = record.clocks[field], clock == incoming.clocks[field], clock.device != deviceID
            else { continue }
            record.unexported.remove(field)
            replacedEdits.append(
                SyncReport.ReplacedEdit(
                    accountID: account.id, issuer: account.issuer, name: account.name, field: field,
                    deviceID: clock.device, deviceName: nil))
        }
    }

    /// Field-wise last writer wins; the counter takes the maximum.
    private func merge(
        _ incoming: AccountState, into local: Account?, record: inout SyncStore.ClockRecord
    ) throws -> ImportSession.MergedAccount {
        let secret = try Self.secret(incoming)
        let pin = try Self.pin(incoming)
        guard let local else {
            record.clocks = incoming.clocks
            let account = Account(
                id: try Self.uuid(incoming.id), issuer: incoming.issuer.value, name: incoming.name.value,
                otp: incoming.otp.value.parameters(counter: incoming.counter), tags: incoming.tags.value,
                note: incoming.note.value, createdAt: Date(unixMilliseconds: incoming.createdAt), updatedAt: writer.now)
            return ImportSession.MergedAccount(
                account: account, secret: secret, deleted: incoming.deleted.value, pin: pin)
        }
        let known = record.clocks
        func wins(_ field: String, _ clock: HybridTimestamp) -> Bool {
            guard let current = known[field] else { return true }
            return clock > current
        }
        var merged = ImportSession.MergedAccount(account: local, secret: nil, deleted: local.deletedAt != nil)
        var settings = AccountState.OTPSettings(local.otp)
        if wins("issuer", incoming.issuer.clock) { merged.account.issuer = incoming.issuer.value }
        if wins("name", incoming.name.clock) { merged.account.name = incoming.name.value }
        if wins("otp", incoming.otp.clock) { settings = incoming.otp.value }
        if wins("tags", incoming.tags.clock) { merged.account.tags = Account.normalizedTags(incoming.tags.value) }
        if wins("note", incoming.note.clock) { merged.account.note = incoming.note.value }
        if wins("secret", incoming.secret.clock) { (merged.secret, merged.pin) = (secret, pin) }
        if wins("deleted", incoming.deleted.clock) { merged.deleted = incoming.deleted.value }
        merged.account.otp = settings.parameters(counter: max(local.otp.counter, incoming.counter))
        for (field, clock) in incoming.clocks where wins(field, clock) {
            record.clocks[field] = clock
        }
        return merged
    }

    /// Writes the merged account through the vault store.
    private func write(_ merged: ImportSession.MergedAccount, over local: Account?) throws {
        let account = merged.account
        guard let local else {
            guard let secret = merged.secret else { throw SyncObjectError.malformed("account secret") }
            let draft = AccountDraft(
                issuer: account.issuer, name: account.name, otp: account.otp, tags: account.tags,
                note: account.note, secret: secret, pin: merged.pin)
            if merged.deleted {
                try writer.insertDeleted(draft, id: account.id, createdAt: account.createdAt)
            } else {
                try writer.insert(draft, id: account.id, createdAt: account.createdAt)
                liveByIdentity[account.identityKey] = account.id
            }
            changedRecords += 1
            return
        }
        let secretChanged = try merged.secret.map { try $0 != writer.secret(for: account.id) } ?? false
        // The PIN comes with a winning secret; otherwise the stored one stays (nil keeps it).
        let pinChanged = try merged.secret != nil && merged.pin != writer.pin(for: account.id)
        let edit = AccountEdit(
            issuer: account.issuer, name: account.name, otp: account.otp, tags: account.tags,
            note: account.note, secret: secretChanged ? merged.secret : nil,
            pin: merged.secret != nil && account.otp.kind.needsPIN ? merged.pin : nil)
        let wasLive = local.deletedAt == nil
        if wasLive, liveByIdentity[local.identityKey] == account.id { liveByIdentity[local.identityKey] = nil }
        if merged.deleted {
            if wasLive { try writer.delete(account.id) }
            try writer.update(account.id, edit)
        } else {
            try writer.update(account.id, edit)
            if !wasLive { try writer.undelete(account.id) }
            liveByIdentity[account.identityKey] = account.id
        }
        if secretChanged || pinChanged || merged.deleted == wasLive || !Self.sameContent(local, account) {
            changedRecords += 1
        }
    }

    private static func sameContent(_ a: Account, _ b: Account) -> Bool {
        a.issuer == b.issuer && a.name == b.name && a.otp == b.otp && a.tags == b.tags && a.note == b.note
    }

    private static func secret(_ incoming: AccountState) throws -> SecretBytes {
        guard var data = Data(base64Encoded: incoming.secret.value) else {
            throw SyncObjectError.malformed("account secret")
        }
        defer { data.resetBytes(in: data.startIndex..<data.endIndex) }
        return SecretBytes(data)
    }

    private static func pin(_ incoming: AccountState) throws -> SecretBytes? {
        guard let text = incoming.pin else { return nil }
        guard var data = Data(base64Encoded: text) else { throw SyncObjectError.malformed("account PIN") }
        defer { data.resetBytes(in: data.startIndex..<data.endIndex) }
        return SecretBytes(data)
    }

    private static func uuid(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw SyncObjectError.malformed("account id") }
        return id
    }
}

extension ImportSession {
    /// An account as the merge decided it should be, before it is written.
    struct MergedAccount {
        var account: Account
        /// The secret to store, when it is new or changed; nil keeps the stored one.
        var secret: SecretBytes?
        var deleted: Bool
        /// The PIN to store with `secret` (Yandex, mOTP); it changes only with the secret.
        var pin: SecretBytes?
    }
}
