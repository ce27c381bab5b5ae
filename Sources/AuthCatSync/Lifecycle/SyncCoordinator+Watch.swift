import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncCoordinator {
    /// What `SyncCoordinator.watch` tells its caller, in order.
    public enum WatchEvent {
        /// The watch holds its lock, so commands start no background push from
        /// now on; its first sync follows at once.
        case started
        /// A sync (or a compaction: `SyncReport.snapshotWritten`) finished, also
        /// one that changed nothing.
        case synced(SyncReport)
        /// A sync failed; the watch goes on, and the next attempt follows the
        /// interval. A vault mismatch is not reported here: it ends the watch.
        case failed(any Error)
        /// Sync was turned off (by `sync disable` in another process, or by
        /// another device); the watch has stopped.
        case turnedOff
    }
}

extension SyncCoordinator {
    /// How often the watch checks the vault: the newest history number (one
    /// indexed SQLite read) and whether sync is still on (a file check, then
    /// one row); neither touches the remote.
    public static let pollInterval: Duration = .milliseconds(250)

    /// Keeps this vault in sync until `isStopped` or sync is turned off: a
    /// check every `pollInterval`, a sync when the vault changed or `interval`
    /// passed since the last one, and a compaction instead of that sync once
    /// it is due and the vault has had no local change for an interval
    /// (`SyncCoordinator.IdleCompaction`). Each sync runs under the run lock, so it takes
    /// its turn with every other sync of the vault.
    ///
    /// - Parameters:
    ///   - vault: the vault whose history tells when it changed.
    ///   - interval: seconds between syncs that only look for other devices' changes.
    ///   - isStopped: checked before each check; true ends the watch.
    ///   - sync: runs one sync, or with `compact` true one compaction, and
    ///     returns its report; nil when it found sync turned off.
    ///   - report: told what happened (`SyncCoordinator.WatchEvent`).
    /// - Throws: a `SyncError` of category `.vaultMismatch` or `PromptInterrupted`
    ///   from `sync`, which end the watch; errors reading the vault or opening the lock files.
    public func watch(
        vault: Vault, interval: TimeInterval, isStopped: () -> Bool,
        sync: (_ compact: Bool) async throws -> SyncReport?,
        report: (SyncCoordinator.WatchEvent) -> Void
    ) async throws {
        let watchLock = try SyncCoordinator.LockFile(url(Self.watchFileName))
        await watchLock.lockShared()
        defer { watchLock.unlock() }
        report(.started)
        let compaction = SyncCoordinator.IdleCompaction(idleTime: interval)
        var exported = try vault.latestHistoryNumber()
        var batchesSinceSnapshot = try SyncState.localState(in: location).batchesSinceSnapshot ?? 0
        var lastLocalChange = clock.now()
        var nextSync = clock.now()
        var state = try? SyncStore.openIfPresent(in: location)
        // A cancelled task's sleep returns at once: the loop ends rather than spin.
        while !isStopped(), !Task.isCancelled {
            guard isStillEnabled(&state) else {
                report(.turnedOff)
                return
            }
            let latest = try vault.latestHistoryNumber()
            if latest != exported { lastLocalChange = clock.now() }
            if latest != exported || clock.now() >= nextSync {
                let compact = compaction.shouldCompact(
                    batchesSinceSnapshot: batchesSinceSnapshot,
                    lastLocalChange: lastLocalChange, now: clock.now())
                let done = try await withRunLock {
                    try await syncOnce(vault, since: latest, compact: compact, sync: sync, report: report)
                }
                exported = done.exported
                batchesSinceSnapshot = done.report?.batchesSinceSnapshot ?? batchesSinceSnapshot
                nextSync = clock.now() + interval
            }
            await sleep(Self.pollInterval)
        }
    }

    /// Whether sync is still on, read through `store` for as long as the file at
    /// its name is the one it opened (`sync disable` may set it aside), so that
    /// a poll is one row read, not an open of `sync.sqlite` and a schema check.
    private func isStillEnabled(_ store: inout SyncStore?) -> Bool {
        if store?.ifStillAtItsName() == nil { store = try? SyncStore.openIfPresent(in: location) }
        return (try? store?.state()?.enabled) ?? false
    }

    /// Syncs (or compacts) once. Returns its report, if it succeeded, and the
    /// history number that is now exported: the newest one, unless a local
    /// change was committed while the sync ran.
    private func syncOnce(
        _ vault: Vault, since latest: Int64, compact: Bool,
        sync: (_ compact: Bool) async throws -> SyncReport?,
        report: (SyncCoordinator.WatchEvent) -> Void
    ) async throws -> (exported: Int64, report: SyncReport?) {
        let done: SyncReport?
        do {
            // Nil: sync was turned off meanwhile, and the next check stops the watch.
            guard let finished = try await sync(compact) else { return (latest, nil) }
            done = finished
            report(.synced(finished))
        } catch let error as SyncError where error.category == .vaultMismatch {
            throw error
        } catch let interrupted as PromptInterrupted {
            // Ctrl-C at a question the sync asked (the WebDAV password): the user stops the watch.
            throw interrupted
        } catch {
            done = nil
            report(.failed(error))
        }
        let since = try vault.history(after: latest)
        return (since.contains { $0.author != .sync } ? latest : since.last?.number ?? latest, done)
    }
}

extension SyncCoordinator {
    /// When a long-running sync (`authcat sync watch`) compacts: once compaction
    /// is due and the vault has been idle for a while.
    ///
    /// A snapshot is as large as the whole vault, so it is written only while
    /// nothing changes locally; a burst of edits keeps getting small batches.
    public struct IdleCompaction: Sendable, Equatable {
        /// How long no local change must have been made.
        public var idleTime: TimeInterval
        /// Batches since this device's last snapshot from which compaction is due.
        public var threshold: Int64

        public init(idleTime: TimeInterval, threshold: Int64 = SyncReport.compactionThreshold) {
            self.idleTime = idleTime
            self.threshold = threshold
        }

        /// Whether to compact now rather than just sync.
        ///
        /// - Parameters:
        ///   - batchesSinceSnapshot: as the last sync reported it (`SyncReport.batchesSinceSnapshot`).
        ///   - lastLocalChange: when a local change was last seen (or the watch started).
        public func shouldCompact(batchesSinceSnapshot: Int64, lastLocalChange: Date, now: Date) -> Bool {
            batchesSinceSnapshot >= threshold && now.timeIntervalSince(lastLocalChange) >= idleTime
        }
    }
}
