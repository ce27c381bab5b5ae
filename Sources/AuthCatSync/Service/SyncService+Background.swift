import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncService {
    /// Says what follows a change a command committed to the vault at
    /// `location` (`SyncCoordinator.afterLocalChange`): nothing, the running
    /// `sync watch`, or a background push. Cheap: no database is opened when
    /// sync was never set up.
    public static func afterLocalChange(in location: VaultLocation, clock: any Clock) -> SyncCoordinator.ChangeFollowUp
    {
        SyncCoordinator(location: location, clock: clock).afterLocalChange()
    }

    /// The background push that follows a change: it queues (at most one
    /// push runs and one waits; `SyncCoordinator.runQueuedPush`), then syncs
    /// in its turn under the run lock. It throws nothing: every failure is
    /// recorded for `sync status`, and the notice updated, since nothing else
    /// would tell the user.
    ///
    /// - Parameter openVault: opens the vault once it is this push's turn;
    ///   nil when its key is not at hand without a prompt (a locked vault is
    ///   no failure: the change waits, pending, for a sync that has the key).
    public static func pushInBackground(
        in location: VaultLocation, remotes: Remotes, clock: any Clock, openVault: () throws -> Vault?
    ) async {
        do {
            try await SyncCoordinator(location: location, clock: clock).runQueuedPush {
                await push(in: location, remotes: remotes, clock: clock, openVault: openVault)
            }
        } catch {
            // A lock file that cannot be used: the push never ran, and only the monitor can say so.
            recordPushFailure(error, in: location, clock: clock)
            SyncNotice.refresh(in: location, now: clock.now())
        }
    }

    private static func push(
        in location: VaultLocation, remotes: Remotes, clock: any Clock, openVault: () throws -> Vault?
    ) async {
        var engineRan = false
        var service: SyncService?
        // The user's next command warns about a failure (see `SyncNotice`); nothing else would tell them.
        defer {
            if let service { service.refreshNotice() } else { SyncNotice.refresh(in: location, now: clock.now()) }
        }
        do {
            guard let vault = try openVault() else { return }
            let opened = SyncService(vault: vault, remotes: remotes, clock: clock)
            service = opened
            _ = try await opened.withEngine(opened.look()) { engine in
                engineRan = true
                return try await engine.run(progress: nil, compacting: false)
            }
        } catch {
            // The engine records its own failures; record those that came before it.
            if !engineRan { recordPushFailure(error, in: location, clock: clock) }
        }
    }

    private static func recordPushFailure(_ error: Error, in location: VaultLocation, clock: any Clock) {
        if let error = error as? SyncError, error == .syncOff { return }
        let log = SyncEventLog(location: location)
        let now = clock.now()
        log.record(SyncEvent(phase: .export, kind: .started, time: now))
        log.record(SyncEvent(phase: .export, kind: .failed, time: now, failure: SyncFailure(error)))
    }
}
