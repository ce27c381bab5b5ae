import AuthCatCore
import AuthCatEssentials
import Foundation

/// Writes this device's change sets, batch or snapshot (docs/FORMAT.md
/// §5.4): the records named, as the vault holds them now, with their
/// clocks, the device's name and its place in its chain. The export and
/// the compaction both write through it.
struct ChangeSetWriter {
    let vault: Vault
    let clock: Clock
    let scope: SyncScope

    /// A change set of this device holding `records` as they are now, numbered
    /// `sequence` and following the chain head of `state`.
    func changeSet(
        _ records: [SyncStore.ClockRecord], snapshot: Bool, sequence: Int64, state: SyncStore.StateRecord
    ) throws -> ChangeSet {
        let accounts = try accountsByID(records)
        let preferences = try vault.preferences()
        var set = ChangeSet(
            format: snapshot ? ChangeSet.snapshotFormat : ChangeSet.batchFormat, version: ChangeSet.currentVersion,
            vault: scope.vaultID, device: scope.deviceID, deviceName: deviceName(state),
            vaultDevice: vault.identity.deviceID, sequence: sequence, previous: state.chainHead,
            createdAt: clock.now().unixMilliseconds, accounts: [], preferences: [])
        // When this device joined the remote vault, carried beside its name.
        set.joinedAt = state.joinedAt
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

    /// The name this device's change sets carry: the one chosen when it
    /// joined or renamed it, else (a state from before names were chosen)
    /// the vault's own device name.
    func deviceName(_ state: SyncStore.StateRecord) -> String {
        state.deviceName ?? vault.identity.deviceName
    }
}
