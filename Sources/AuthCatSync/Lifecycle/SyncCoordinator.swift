import AuthCatCore
import AuthCatEssentials
import Foundation

/// When this device syncs, and who may: the one lock every sync of a vault
/// takes its turn under, the queue of background pushes, and `sync watch`.
///
/// Every process that syncs a vault goes through one of these, so the rules
/// hold across processes; they rest on `flock(2)`, which the kernel releases
/// when a process dies, so a killed sync never leaves the vault locked.
///
/// - One sync at a time: `withRunLock`, taken once per job (the sync
///   service takes it for every job it runs; the engine and setup never take it).
/// - After a change to the vault (`afterLocalChange()`): a background push,
///   unless sync is off or a `sync watch` exports the change anyway.
/// - Background pushes (`runQueuedPush`): at most one runs and one waits. A
///   push that finds another one waiting stops at once: that one started
///   after its change was committed, so it exports it too.
/// - `watch`: syncs whenever the vault changed or the interval passed, and
///   compacts instead when that is due and the vault is idle; time comes from
///   the clock and waits from `sleep`, both given, so tests step through it.
///
/// The files, all empty and only locked (docs/FORMAT.md): `sync-run.lock`,
/// `sync-queue.lock` (held by the one waiting push) and `sync-watch.lock`
/// (held shared by every `sync watch`).
public struct SyncCoordinator: Sendable {
    static let queueFileName = "sync-queue.lock"
    static let watchFileName = "sync-watch.lock"

    public let location: VaultLocation
    let clock: any Clock
    let sleep: @Sendable (Duration) async -> Void

    /// - Parameters:
    ///   - clock: what the watch reads the time from.
    ///   - sleep: how the watch waits between its checks; the default really waits.
    public init(
        location: VaultLocation, clock: any Clock = SystemClock(),
        sleep: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
    ) {
        self.location = location
        self.clock = clock
        self.sleep = sleep
    }

    /// What follows a change that a command committed to the vault.
    public enum ChangeFollowUp: Sendable, Equatable {
        /// Sync is off here: nothing goes out.
        case nothing
        /// A `sync watch` runs for this vault; it exports the change within a second.
        case watchExportsIt
        /// A background push should start (see `runQueuedPush`).
        case backgroundPush
    }

    /// Says what follows a local change. When sync was set up but its state
    /// was lost, it also brings the notice up to date, so that the next
    /// commands warn until the user acts.
    public func afterLocalChange() -> ChangeFollowUp {
        guard SyncState.isEnabled(in: location) else {
            if SyncState.lostStateError(in: location) != nil { SyncNotice.refresh(in: location, now: clock.now()) }
            return .nothing
        }
        return isWatched ? .watchExportsIt : .backgroundPush
    }

    /// Whether a `sync watch` runs for this vault.
    public var isWatched: Bool {
        guard let file = try? SyncCoordinator.LockFile(url(Self.watchFileName)) else { return false }
        guard file.tryLock() else { return true }
        file.unlock()
        return false
    }

    /// Runs `body` as this vault's one sync at a time, waiting for the turn
    /// of whoever syncs now. Nothing called inside takes it again.
    ///
    /// - Parameter whenBusy: called once, before waiting, when another sync runs.
    /// - Throws: `SecureFileError` when the lock file cannot be opened, and whatever `body` throws.
    public func withRunLock<Result>(whenBusy: () -> Void = {}, _ body: () async throws -> Result) async throws -> Result
    {
        try await SyncCoordinator.RunLock.holding(in: location, whenBusy: whenBusy, body)
    }

    /// Runs `sync enable`'s steps (setup, then the first sync) in one turn
    /// under the run lock. When they fail and sync is not on afterwards, the
    /// lock file is removed, so that a failed enable leaves nothing behind.
    public func withRunLockForSetup<Result>(_ body: () async throws -> Result) async throws -> Result {
        try await SyncCoordinator.RunLock.holding(
            in: location, removeFileAfterFailure: { !SyncState.isEnabled(in: location) }, body)
    }

    /// Runs a background push in its turn: it queues (at most one push waits),
    /// waits for the run lock, leaves the queue, and runs `push` under the lock.
    ///
    /// - Parameters:
    ///   - whileWaiting: called once, before waiting, when it queued behind another sync.
    ///   - push: the sync; it records its own failures.
    /// - Returns: false, without calling `push`, when sync is off or another
    ///   push already waits (it exports this push's change too).
    /// - Throws: `SecureFileError` when a lock file cannot be opened, `SyncError`
    ///   when the system refuses the lock; the push did not run, and nothing
    ///   else would tell the user, so the caller records it.
    @discardableResult
    public func runQueuedPush(whileWaiting: () -> Void = {}, _ push: () async -> Void) async throws -> Bool {
        guard SyncState.isEnabled(in: location) else { return false }
        let queue = try SyncCoordinator.LockFile(url(Self.queueFileName))
        guard queue.tryLock() else { return false }
        return try await SyncCoordinator.RunLock.holding(in: location, whenBusy: whileWaiting) {
            // Left only now that this push holds the run lock: a change committed from here
            // on starts a push of its own, and one committed before is exported by this one.
            queue.unlock()
            await push()
            return true
        }
    }

    func url(_ fileName: String) -> URL {
        location.folder.appendingPathComponent(fileName)
    }
}
