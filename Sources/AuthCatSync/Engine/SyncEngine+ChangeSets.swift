import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncEngine {
    /// A change set of this device holding the given records as they are now.
    ///
    /// - Parameters:
    ///   - name: this device's name, which every batch and snapshot carries.
    ///   - joinedAt: when this device joined the remote vault (`state.joinedAt`), carried beside its name.
    func makeChangeSet(
        _ records: [SyncStore.ClockRecord], snapshot: Bool, sequence: Int64, previous: String, name: String,
        joinedAt: Int64? = nil, _ run: SyncEngine.Run
    ) throws -> ChangeSet {
        let accounts = try accountsByID(records)
        let preferences = try vault.preferences()
        var set = ChangeSet(
            format: snapshot ? ChangeSet.snapshotFormat : ChangeSet.batchFormat, version: ChangeSet.currentVersion,
            vault: run.vaultID, device: run.deviceID, deviceName: name,
            vaultDevice: vault.identity.deviceID, sequence: sequence, previous: previous,
            createdAt: clock.now().unixMilliseconds, accounts: [], preferences: [])
        set.joinedAt = joinedAt
        for record in records.sorted(by: { ($0.entity.rawValue, $0.recordID) < ($1.entity.rawValue, $1.recordID) }) {
            switch record.entity {
            case .account:
                guard let account = accounts[record.recordID] else { continue }
                set.accounts.append(try accountState(account, clocks: record.clocks))
            case .preference:
                set.preferences.append(
                    PreferenceState(
                        key: record.recordID, value: preferences[record.recordID],
                        clock: record.clocks["value"] ?? Self.unknownTime))
            }
        }
        return set
    }

    /// The accounts `records` name: read one by one for a small batch, all at once for a large one.
    private func accountsByID(_ records: [SyncStore.ClockRecord]) throws -> [String: Account] {
        let ids = records.filter { $0.entity == .account }.map(\.recordID)
        guard ids.count <= 32 else {
            return Dictionary(
                uniqueKeysWithValues: try vault.accounts(includingDeleted: true).map { ($0.id.vaultString, $0) })
        }
        var found: [String: Account] = [:]
        for id in ids {
            if let uuid = UUID(uuidString: id), let account = try vault.account(id: uuid) { found[id] = account }
        }
        return found
    }

    /// A field without a clock (never expected) loses to any real change.
    static let unknownTime = HybridTimestamp(wall: 0, logical: 0, device: "0")

    private func accountState(_ account: Account, clocks: [String: HybridTimestamp]) throws -> AccountState {
        func stamped<Value>(_ value: Value, _ field: String) -> Stamped<Value> {
            Stamped(value: value, clock: clocks[field] ?? Self.unknownTime)
        }
        let secret = try vault.secret(for: account.id)
        var state = AccountState(
            id: account.id.vaultString, createdAt: account.createdAt.unixMilliseconds, counter: account.otp.counter,
            issuer: stamped(account.issuer, "issuer"), name: stamped(account.name, "name"),
            otp: stamped(AccountState.OTPSettings(account.otp), "otp"),
            secret: stamped(secret.unprotectedData().base64EncodedString(), "secret"),
            tags: stamped(account.tags, "tags"), note: stamped(account.note, "note"),
            deleted: stamped(account.deletedAt != nil, "deleted"))
        if account.otp.kind.needsPIN {
            state.pin = try vault.pin(for: account.id)?.unprotectedData().base64EncodedString()
        }
        return state
    }

    /// Seals a change set of this device for its object name.
    func seal(_ changes: ChangeSet, name: String, _ run: SyncEngine.Run) throws -> Data {
        try SealedObject.seal(
            try changes.encoded(), key: run.keys.objectKey, vault: run.vaultID, device: run.deviceID, name: name)
    }
}
