import AuthCatCore
import Foundation

extension ImportSession {
    /// Settles a merged live account whose label another live account has.
    ///
    /// The rules depend only on the two records, so every device that meets
    /// the clash settles it the same way, whichever side it saw first:
    /// - same secret: one account, not two. The smaller id (lowercase string
    ///   order) stays; the other becomes a tombstone; both take the larger HOTP
    ///   counter of the two, so no code is handed out twice, not even after
    ///   `authcat restore` brings the tombstone back.
    /// - different secrets: two accounts. The one with the larger id gets
    ///   ` (<first 8 hex digits of its id>)` appended to its name.
    /// The change is stamped as this device's own, so it is exported; all
    /// devices export the same values, so they converge.
    func settleClash(_ merged: inout MergedAccount, record: inout SyncClockRecord) throws {
        let id = merged.account.id
        guard let otherID = liveByIdentity[merged.account.identityKey], otherID != id,
              let other = try writer.account(otherID) else { return }
        let otherSecret = try writer.secret(for: otherID)
        let ownSecret = try merged.secret ?? writer.secret(for: id)
        if ownSecret == otherSecret {
            try mergeDuplicate(&merged, record: &record, other: other)
        } else if id.vaultString > otherID.vaultString {
            merged.account.name = uniqueName(for: merged.account)
            record.clocks["name"] = tick()
            record.pending = true
        } else {
            let name = uniqueName(for: other)
            try writer.update(otherID, AccountEdit(name: name))
            liveByIdentity[other.identityKey] = nil
            liveByIdentity[Account.identityKey(issuer: other.issuer, name: name)] = otherID
            try markLocal(.account, otherID.vaultString, field: "name")
        }
    }

    private func mergeDuplicate(_ merged: inout MergedAccount, record: inout SyncClockRecord, other: Account) throws {
        let counter = max(merged.account.otp.counter, other.otp.counter)
        merged.account.otp.counter = counter
        record.pending = true
        if merged.account.id.vaultString < other.id.vaultString {
            // The tombstone keeps the higher counter too: `authcat restore` must not bring back a used one.
            if other.otp.counter < counter {
                var otp = other.otp
                otp.counter = counter
                try writer.update(other.id, AccountEdit(otp: otp))
            }
            try writer.delete(other.id)
            liveByIdentity[other.identityKey] = nil
            try markLocal(.account, other.id.vaultString, field: "deleted")
        } else {
            merged.deleted = true
            record.clocks["deleted"] = tick()
            if other.otp.counter < counter {
                var otp = other.otp
                otp.counter = counter
                try writer.update(other.id, AccountEdit(otp: otp))
                try markLocal(.account, other.id.vaultString, field: nil)
            }
        }
    }

    /// The name plus a part of the id, long enough that no live account has it.
    func uniqueName(for account: Account) -> String {
        let hex = account.id.vaultString.replacingOccurrences(of: "-", with: "")
        for length in [8, 12, 16, 32] {
            let candidate = "\(account.name) (\(hex.prefix(length)))"
            if liveByIdentity[Account.identityKey(issuer: account.issuer, name: candidate)] == nil { return candidate }
        }
        return "\(account.name) (\(account.id.vaultString))"
    }
}
