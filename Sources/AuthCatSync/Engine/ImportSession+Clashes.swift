import AuthCatCore
import AuthCatEssentials
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
    /// The change is exported as this device's own, but stamped just after the
    /// clock of the value it replaces (`HybridTimestamp.settling`), not with
    /// this device's current time: a clash settled late, by a device that
    /// joins or syncs long after, must not beat a change a user made since on
    /// another device. All devices stamp it alike, so they converge.
    func settleClash(_ merged: inout ImportSession.MergedAccount, record: inout SyncStore.ClockRecord) throws {
        let id = merged.account.id
        guard let otherID = liveByIdentity[merged.account.identityKey], otherID != id,
            let other = try writer.account(otherID)
        else { return }
        let otherSecret = try writer.secret(for: otherID)
        let ownSecret = try merged.secret ?? writer.secret(for: id)
        if ownSecret == otherSecret {
            try mergeDuplicate(&merged, record: &record, other: other)
        } else if id.vaultString > otherID.vaultString {
            let (name, clock) = clashRename(merged.account, nameClock: record.clocks["name"])
            merged.account.name = name
            record.clocks["name"] = clock
            record.pending = true
        } else {
            let (name, clock) = clashRename(
                other, nameClock: try clockRecord(.account, otherID.vaultString).clocks["name"])
            try writer.update(otherID, AccountEdit(name: name))
            liveByIdentity[other.identityKey] = nil
            liveByIdentity[Account.identityKey(issuer: other.issuer, name: name)] = otherID
            try markLocal(.account, otherID.vaultString, setting: ["name": clock])
        }
    }

    private func mergeDuplicate(
        _ merged: inout ImportSession.MergedAccount, record: inout SyncStore.ClockRecord, other: Account
    ) throws {
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
            let deleted = settlingStamp(after: try clockRecord(.account, other.id.vaultString).clocks["deleted"])
            try markLocal(.account, other.id.vaultString, setting: ["deleted": deleted])
        } else {
            merged.deleted = true
            record.clocks["deleted"] = settlingStamp(after: record.clocks["deleted"])
            if other.otp.counter < counter {
                var otp = other.otp
                otp.counter = counter
                try writer.update(other.id, AccountEdit(otp: otp))
                // The counter has no clock (it merges as a maximum): only exported.
                try markLocal(.account, other.id.vaultString, setting: [:])
            }
        }
    }

    /// The settled name of `account` and its stamp, just after `nameClock`,
    /// the clock of the name it replaces.
    private func clashRename(_ account: Account, nameClock: HybridTimestamp?) -> (String, HybridTimestamp) {
        let (name, digits) = uniqueName(for: account)
        // The digit count is part of the stamp: two devices that picked a different length stamp differently.
        return (name, settlingStamp(after: nameClock, variant: digits == 8 ? "" : String(digits)))
    }

    /// A settlement's stamp: just after the clock of the value it replaces.
    private func settlingStamp(after clock: HybridTimestamp?, variant: String = "") -> HybridTimestamp {
        // Every local account has clocks once stamped; should one lack them, now still orders the change.
        clock?.settling(variant: variant) ?? tick()
    }

    /// The name plus a part of the id, long enough that no live account has
    /// it, and how many hex digits of the id it took.
    func uniqueName(for account: Account) -> (name: String, digits: Int) {
        let hex = account.id.vaultString.replacingOccurrences(of: "-", with: "")
        for length in [8, 12, 16, 32] {
            let candidate = "\(account.name) (\(hex.prefix(length)))"
            if liveByIdentity[Account.identityKey(issuer: account.issuer, name: candidate)] == nil {
                return (candidate, length)
            }
        }
        return ("\(account.name) (\(account.id.vaultString))", 36)
    }
}
