import AuthCatCore
import AuthCatEssentials
import Foundation

// A program drives sync through the service (Service/), the one door: it
// owns the run lock, the open `sync.sqlite` and the remote for a job, and
// opens a `SyncEngine` on them. The engine and setup never take the lock.

/// Keeps one vault in step with a remote vault shared by several devices.
///
/// A sync first stamps local changes (history since the last look, never the
/// engine's own writes) with hybrid-logical-clock times, lists the remote once,
/// imports every other device's new batches through the vault store (author
/// `sync`, so they show in history with the device they came from), then
/// exports the stamped local changes as one new batch of this device.
final class SyncEngine: Sendable {
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

    /// The engine for `vault`, or nil when sync is off on this device; for
    /// tests, which drive the engine without the service's run lock.
    ///
    /// - Throws: `SyncError` when sync was set up but its state is missing,
    ///   emptied or damaged: that is never "off".
    static func open(
        vault: Vault, remote: any Remote, recorder: SyncEventRecorder,
        clock: Clock = SystemClock()
    ) throws -> SyncEngine? {
        guard let (store, record) = try SyncState.look(in: vault.location).setUp(), record.enabled else { return nil }
        return SyncEngine(vault: vault, remote: remote, recorder: recorder, clock: clock, store: store)
    }

    /// Local changes not yet exported: stamped records waiting, plus history
    /// transactions since the last stamp.
    func pendingLocalChanges() throws -> Int {
        try SyncState.pendingLocalChanges(store: store, vault: vault)
    }

    /// This device's sync state, as the monitor shows it.
    func status() throws -> SyncLocalState {
        try SyncState.localState(in: vault.location, vault: vault)
    }
}
