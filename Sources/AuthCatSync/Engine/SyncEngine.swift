import AuthCatCore
import AuthCatEssentials
import Foundation

// How a program drives sync with this library:
//
// - Setup: `SyncSetup.plan(vault:remote:remoteURL:)` says whether `enable` will
//   create a remote vault (ask for a new passphrase), join one (ask for the
//   passphrase or recovery key; first confirm, for `.joinDifferentVault`, a
//   different vault where this device synced before) or resume (ask nothing). `SyncSetup.enable(vault:remote:remoteURL:
//   secret:kdf:recorder:clock:)` does it and returns `SyncEnableResult` (with the
//   recovery key, to show once, when created). It does not sync: call
//   `SyncEngine.open(...)?.sync()` next. Wrong secret → `SyncError` with category
//   `.wrongPassphrase`, nothing written locally or remotely.
// - `SyncState.isEnabled(in:)` is cheap (no database opened when sync was never
//   set up); `SyncState.localState(in:vault:)` gives the monitor's `SyncLocalState`.
// - `SyncEngine.open(vault:remote:recorder:clock:)` is nil when sync is off here.
//   `sync(progress:)` pulls then pushes and returns `SyncReport`; `compact(progress:)`
//   does the same and then writes a snapshot that replaces this device's batches; `disable(everywhere:
//   deleteRemote:)` turns sync off here always, then writes the remote marker or
//   deletes the remote data. `pendingLocalChanges()` and `status()` for the monitor.
// - Events: setup, import and export each record `.started` then `.succeeded` or
//   `.failed` (with a `SyncFailure`) through the `SyncEventRecorder`.
// - Errors: `SyncError` (a `UserFacingError`) with `category: SyncFailure.Category`.
//   After `.remoteDeleted` or `.disabledElsewhere` sync is off here (open returns
//   nil); after `.vaultMismatch` it stays on but every sync stops with that error.
// - Local state: `sync.sqlite` (0600) in the vault folder, owned by the engine.
// - When to sync, and who may: `SyncCoordinator` (Lifecycle/): one sync of a vault
//   at a time under `sync-run.lock`, which `sync`, `compact`, `disable` and
//   `SyncSetup.enable` take themselves unless their caller holds it; the queue of
//   background pushes; whether a change starts one; the `sync watch` loop.

/// Keeps one vault in step with a remote vault shared by several devices.
///
/// A sync first stamps local changes (history since the last look, never the
/// engine's own writes) with hybrid-logical-clock times, lists the remote once,
/// imports every other device's new batches through the vault store (author
/// `sync`, so they show in history with the device they came from), then
/// exports the stamped local changes as one new batch of this device.
public final class SyncEngine: Sendable {
    /// After this many batches since its last snapshot, compaction is due:
    /// `sync watch` compacts when idle and `sync now` suggests `sync compact`.
    /// An ordinary sync never compacts (a snapshot is as large as the vault).
    public static let compactionThreshold: Int64 = 64

    let vault: Vault
    let remote: CountingRemote
    let recorder: SyncEventRecorder
    let clock: Clock
    let store: SyncStore

    init(vault: Vault, remote: any Remote, recorder: SyncEventRecorder, clock: Clock, store: SyncStore) {
        self.vault = vault
        self.remote = CountingRemote(remote)
        self.recorder = recorder
        self.clock = clock
        self.store = store
    }

    /// The engine for `vault`, or nil when sync is off on this device.
    ///
    /// - Throws: `SyncError` when sync was set up but its state is missing,
    ///   emptied or damaged: that is never "off".
    public static func open(
        vault: Vault, remote: any Remote, recorder: SyncEventRecorder,
        clock: Clock = SystemClock()
    ) throws -> SyncEngine? {
        if let lost = SyncState.lostStateError(in: vault.location) { throw lost }
        guard let store = try SyncStore.openIfPresent(in: vault.location), let state = try store.state(), state.enabled
        else {
            return nil
        }
        return SyncEngine(vault: vault, remote: remote, recorder: recorder, clock: clock, store: store)
    }

    /// The engine for `vault` whenever sync was set up here, also after it was
    /// turned off on this device; nil if sync was never set up.
    ///
    /// For `disable(everywhere:deleteRemote:)`, which can still turn sync off
    /// everywhere or delete the remote data after sync was turned off here
    /// (the state keeps the remote and the sealed master key). `sync` and
    /// `compact` refuse while sync is off.
    public static func openSetUp(
        vault: Vault, remote: any Remote, recorder: SyncEventRecorder,
        clock: Clock = SystemClock()
    ) throws -> SyncEngine? {
        if let lost = SyncState.lostStateError(in: vault.location) { throw lost }
        guard let store = try SyncStore.openIfPresent(in: vault.location), try store.state() != nil else { return nil }
        return SyncEngine(vault: vault, remote: remote, recorder: recorder, clock: clock, store: store)
    }

    /// Local changes not yet exported: stamped records waiting, plus history
    /// transactions since the last stamp.
    public func pendingLocalChanges() throws -> Int {
        try Self.pendingLocalChanges(store: store, vault: vault)
    }

    /// This device's sync state, as the monitor shows it.
    public func status() throws -> SyncLocalState {
        try SyncState.localState(in: vault.location, vault: vault)
    }

    static func pendingLocalChanges(store: SyncStore, vault: Vault) throws -> Int {
        guard let state = try store.state() else { return 0 }
        let stamped = try store.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM record WHERE pending = 1") ?? 0
        }
        guard let cursor = state.stampCursor else {
            return try vault.accounts(includingDeleted: true).count + vault.preferences().count
        }
        let unstamped = try vault.history(after: cursor).filter { $0.author != .sync }
        return stamped + Set(unstamped.flatMap { $0.changes.map { "\($0.entity.rawValue)/\($0.recordID)" } }).count
    }
}
