import AuthCatCore
import AuthCatEssentials
import Foundation

/// The one door into sync for one vault: every job (`now`, `compact`,
/// `enable`, `disable`, `watch`, `status`, and the background push) goes
/// through it, and each returns what happened with the monitor (the events
/// and the notice) already up to date.
///
/// It owns what a job needs and opens each once: it takes the run lock once
/// per job (`SyncCoordinator.RunLock`; nothing below it takes it again), then looks at the
/// sync state once (never set up, lost, off or on, and the remote), with
/// `sync.sqlite` opened once for the service's life, and hands the open store,
/// the remote and the vault to the engine or setup it runs.
///
/// A program opens one service per run (`authcat-cli` per command line);
/// it is used by one task at a time.
public final class SyncService {
    /// How the service reaches the remote a sync state names.
    public enum Remotes: Sendable {
        /// Made from the remote's location URL for each job and closed after it,
        /// with what `enable` found about its create-only writes (nil: unknown).
        case byLocation(@Sendable (_ url: String, _ createOnlyEnforced: Bool?) async throws -> any Remote)
        /// This remote for every job, whatever the state names; left open (tests, benchmarks).
        case fixed(any Remote)
    }

    /// What a sync (`now`) or compaction did, and the state it left.
    public struct Outcome: Sendable {
        public var report: SyncReport
        /// This device's sync state after it, as the notice was updated from.
        public var local: SyncLocalState
    }

    public let vault: Vault
    let remotes: Remotes
    let clock: any Clock
    let recorder: any SyncEventRecorder
    let coordinator: SyncCoordinator
    /// `sync.sqlite`, once a job opened it.
    private var opened: SyncStore?

    /// - Parameters:
    ///   - recorder: where the jobs' events go; the vault folder's `SyncEventLog` by default.
    ///   - sleep: how `watch` waits between its checks; the default really waits.
    public init(
        vault: Vault, remotes: Remotes, clock: any Clock = SystemClock(), recorder: (any SyncEventRecorder)? = nil,
        sleep: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
    ) {
        self.vault = vault
        self.remotes = remotes
        self.clock = clock
        self.recorder = recorder ?? SyncEventLog(location: vault.location)
        coordinator = SyncCoordinator(location: vault.location, clock: clock, sleep: sleep)
    }

    public var location: VaultLocation { vault.location }

    // MARK: Jobs

    /// Pulls other devices' changes, then pushes this device's (`SyncEngine`).
    ///
    /// - Parameters:
    ///   - progress: told each step of a sync that takes a while.
    ///   - whenBusy: called once, before waiting, when another sync of this vault runs.
    /// - Throws: `SyncError.syncOff` when sync is off here, the lost state's
    ///   `SyncError` when it was lost, and the sync's own `SyncError`.
    public func now(
        progress: ((SyncProgress) -> Void)? = nil, whenBusy: () -> Void = {}
    ) async throws -> Outcome {
        try await coordinator.withRunLock(whenBusy: whenBusy) {
            try await syncInTurn(compacting: false, progress: progress)
        }
    }

    /// Syncs like `now`, then replaces this device's batches on the remote with one snapshot.
    public func compact(
        progress: ((SyncProgress) -> Void)? = nil, whenBusy: () -> Void = {}
    ) async throws -> Outcome {
        try await coordinator.withRunLock(whenBusy: whenBusy) {
            try await syncInTurn(compacting: true, progress: progress)
        }
    }

    /// The monitor's summary: the recorded events, this device's state and,
    /// with `probe`, whether the remote answers (one list request, at most
    /// `timeout`). The notice is updated from it.
    ///
    /// - Parameter keys: the vault opened without a prompt, whose key opens a
    ///   deletion marker the probe finds; nil when it cannot be had.
    public func status(probe: Bool, timeout: Duration, keys: () -> Vault?) async throws -> SyncStatus {
        let local = try SyncState.localState(look(), in: location, vault: vault)
        let probed = probe && local.isEnabled ? await self.probe(local, timeout: timeout, keys: keys) : nil
        let status = SyncStatus.fold(
            events: try SyncEventLog(location: location).events(), local: local, probe: probed, now: clock.now())
        SyncNotice.update(status, in: location)
        return status
    }

    /// The remote this device syncs with, checking that sync is on: what
    /// `watch` is about to keep in sync.
    ///
    /// - Throws: the lost state's `SyncError`, or `SyncError.syncOff`.
    public func remoteWhileOn() throws -> String {
        try look().on().record.remoteURL
    }

    /// Keeps this vault in sync until `isStopped` or sync is turned off
    /// (`SyncCoordinator.watch`): each of its syncs takes its turn under the
    /// run lock and updates the notice.
    ///
    /// - Throws: as `remoteWhileOn` before it starts; then a `SyncError` of
    ///   category `.vaultMismatch`, which ends it.
    public func watch(
        interval: TimeInterval, isStopped: () -> Bool, report: (SyncCoordinator.WatchEvent) -> Void
    ) async throws {
        _ = try remoteWhileOn()
        try await coordinator.watch(
            vault: vault, interval: interval, isStopped: isStopped,
            sync: { compact in
                do {
                    return try await syncInTurn(compacting: compact, progress: nil).report
                } catch let error as SyncError where error == .syncOff {
                    return nil
                }
            },
            report: report)
    }

    // MARK: What the jobs share

    /// One look at the sync state, with `sync.sqlite` opened at most once
    /// while it stays the file at its name.
    func look() -> SyncState.Standing {
        let standing = SyncState.look(in: location, reusing: opened)
        opened = standing.store
        return standing
    }

    /// One sync inside the caller's turn under the run lock; the notice is
    /// updated afterwards, whatever happened.
    func syncInTurn(compacting: Bool, progress: ((SyncProgress) -> Void)?) async throws -> Outcome {
        let standing = look()
        do {
            let report = try await withEngine(standing) { engine in
                try await engine.run(progress: progress, compacting: compacting)
            }
            let local = try SyncState.localState(standing.reread(in: location), in: location, vault: nil)
            updateNotice(local)
            return Outcome(report: report, local: local)
        } catch {
            refreshNotice(after: standing)
            throw error
        }
    }

    /// Runs `body` with an engine on the open store and the remote the state
    /// names, closing that remote afterwards.
    ///
    /// - Parameter evenIfOff: also when sync was set up but is off here (for `disable`'s remote part).
    /// - Throws: the lost state's `SyncError`, or `SyncError.syncOff`.
    func withEngine<Result>(
        _ standing: SyncState.Standing, evenIfOff: Bool = false, _ body: (SyncEngine) async throws -> Result
    ) async throws -> Result {
        guard let (store, record) = try evenIfOff ? standing.setUp() : Optional(standing.on()) else {
            throw SyncError.syncOff
        }
        return try await withRemote(record.remoteURL, createOnlyEnforced: record.createOnlyEnforced) { remote in
            try await body(SyncEngine(vault: vault, remote: remote, recorder: recorder, clock: clock, store: store))
        }
    }

    /// Runs `body` with the remote at `url`, closing it afterwards when the service made it.
    func withRemote<Result>(
        _ url: String, createOnlyEnforced: Bool? = nil, _ body: (any Remote) async throws -> Result
    ) async throws -> Result {
        switch remotes {
        case .fixed(let remote):
            return try await body(remote)
        case .byLocation(let make):
            let remote = try await make(url, createOnlyEnforced)
            do {
                let result = try await body(remote)
                try? await remote.close()
                return result
            } catch {
                try? await remote.close()
                throw error
            }
        }
    }

    /// Brings the notice up to date from the recorded events and one more
    /// look at the state (on the open store), without contacting the remote.
    func refreshNotice() {
        refreshNotice(after: look())
    }

    /// Brings the notice up to date after a job that looked at the state as
    /// `standing`, from the state it left, without looking at the files again.
    func refreshNotice(after standing: SyncState.Standing) {
        let local: SyncLocalState
        do {
            local = try SyncState.localState(standing.reread(in: location), in: location, vault: nil)
        } catch {
            var unreadable = SyncLocalState.off
            unreadable.stateProblem = SyncFailure(error)
            local = unreadable
        }
        updateNotice(local)
    }

    /// Writes the notice from the recorded events and the state a job left.
    private func updateNotice(_ local: SyncLocalState) {
        let events = (try? SyncEventLog(location: location).events()) ?? []
        SyncNotice.update(SyncStatus.fold(events: events, local: local, probe: nil, now: clock.now()), in: location)
    }

    private func probe(_ local: SyncLocalState, timeout: Duration, keys: () -> Vault?) async -> SyncProbeResult? {
        guard let url = local.remoteLocation else { return nil }
        do {
            return try await withRemote(url, createOnlyEnforced: local.createOnlyEnforced) { remote in
                // A deletion marker is believed once it opens with the key; the check never waits on a prompt.
                await SyncProbe.check(remote, vaultID: local.remoteVaultID, keysFrom: keys(), timeout: timeout)
            }
        } catch {
            return .failed(SyncFailure(error))
        }
    }
}
