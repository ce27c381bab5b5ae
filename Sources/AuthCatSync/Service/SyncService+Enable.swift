import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncService {
    /// What `enable` did.
    public enum EnableOutcome: Sendable {
        /// `isOnAlready` said so (before anything was asked, or once it was this job's turn).
        case alreadyOn
        /// Sync is on now; the first sync's report, or why it failed (sync
        /// stays on); nil when it was not asked for.
        case enabled(SyncEnableResult, firstSync: Result<SyncReport, any Error>?)
    }

    /// Turns sync on with the remote at `remoteURL`: creates a remote vault,
    /// joins one, or resumes (`SyncSetup`), then syncs once.
    ///
    /// Whatever may wait on a person comes before the run lock, so that no
    /// other sync of this vault waits on them: the remote is listed first
    /// (`SyncSetupPlan`), then `ask` gets the secret for that plan. Then, in
    /// one turn under the run lock, it sets up (refusing, with nothing
    /// written, when the remote now needs another plan), calls `announce`
    /// (the recovery key goes out before the first sync, which can be slow or
    /// stopped) and syncs once. A failure before sync is on removes the lock
    /// file, so that a failed enable leaves nothing behind.
    ///
    /// - Parameters:
    ///   - remoteURL: the location as the user gave it.
    ///   - makeRemote: makes the remote for `remoteURL`; the service closes it.
    ///   - isOnAlready: asked with this device's state first and again once it
    ///     is this job's turn (another enable may have finished meanwhile);
    ///     true ends the job there.
    ///   - ask: the secret for the plan (nil to resume), from the remote's display location.
    ///   - askAgain: told why the remote vault refused the secret (a wrong
    ///     one): returning asks `ask` again, outside the run lock, at most
    ///     `Vault.passphraseAttempts` times in all; throwing ends the job. Nil
    ///     makes the first wrong secret final.
    ///   - kdf: the key derivation for a new sync passphrase; nil for libsodium's moderate limits.
    ///   - announce: told the setup's result before the first sync.
    ///   - progress: told each step of the first sync.
    ///   - firstSync: whether to sync once after setup; false only where that
    ///     sync is run apart (a benchmark times it on its own).
    ///   - deviceName: the name this device takes on the remote, chosen by the
    ///     user; nil keeps the one it had when resuming, else takes `hostName`.
    ///     A name another device carries gets a suffix at the first sync
    ///     (`SyncReport.deviceRenamed`); resuming under one refuses it.
    ///   - hostName: this machine's name, the default name of a device that
    ///     joins or creates (sanitized); nil for the vault's own device name.
    /// - Throws: `SyncError` from the remote or the setup (recorded as a
    ///   failed setup for `sync status`), `DeviceDirectory.NamingError` for a
    ///   name that cannot be taken (nothing changed), and whatever `ask` or
    ///   `announce` throws.
    public func enable(
        remoteURL: String, makeRemote: () async throws -> any Remote,
        isOnAlready: (SyncLocalState) throws -> Bool,
        ask: (SyncSetupPlan, _ remote: String) throws -> SyncSecret?,
        askAgain: ((_ refused: any Error) throws -> Void)? = nil, kdf: KDFParameters?,
        announce: (SyncEnableResult, _ remote: String) throws -> Void,
        progress: ((SyncProgress) -> Void)? = nil, firstSync: Bool = true,
        deviceName: String? = nil, hostName: String? = nil
    ) async throws -> EnableOutcome {
        let naming = SetupContext.Naming(
            chosen: try deviceName.map(DeviceName.validated),
            fallback: DeviceName.sanitized(hostName ?? vault.identity.deviceName))
        if try isOnAlready(try SyncState.localState(look(), in: location, vault: vault)) { return .alreadyOn }
        let remote = try await recordingSetupFailure { try await makeRemote() }
        do {
            let outcome = try await enable(
                remote, remoteURL: remoteURL, isOnAlready: isOnAlready, ask: ask, askAgain: askAgain, kdf: kdf,
                announce: announce, progress: progress, firstSync: firstSync, naming: naming)
            try? await remote.close()
            return outcome
        } catch {
            try? await remote.close()
            throw error
        }
    }

    private func enable(
        _ remote: any Remote, remoteURL: String, isOnAlready: (SyncLocalState) throws -> Bool,
        ask: (SyncSetupPlan, String) throws -> SyncSecret?,
        askAgain: ((any Error) throws -> Void)?, kdf: KDFParameters?,
        announce: (SyncEnableResult, String) throws -> Void, progress: ((SyncProgress) -> Void)?,
        firstSync: Bool, naming: SetupContext.Naming
    ) async throws -> EnableOutcome {
        let plan = try await recordingSetupFailure {
            try await remote.prepare()
            return try await SyncSetup.plan(vault: vault, remote: remote, remoteURL: remoteURL)
        }
        var secret = try ask(plan, remote.displayLocation)
        var refusals = 0
        while true {
            do {
                return try await coordinator.withRunLockForSetup {
                    if try isOnAlready(try SyncState.localState(look(), in: location, vault: vault)) {
                        return .alreadyOn
                    }
                    // The secret was asked for this plan; a remote that changed meanwhile fails the setup.
                    let result = try await SyncSetup.enable(
                        vault: vault, remote: remote, remoteURL: remoteURL, secret: secret, kdf: kdf,
                        recorder: recorder, clock: clock, naming: naming, expecting: plan)
                    try announce(result, remote.displayLocation)
                    return .enabled(
                        result, firstSync: firstSync ? await self.firstSync(remote, progress: progress) : nil)
                }
            } catch let refused as SyncError where refused.category == .wrongPassphrase {
                refusals += 1
                guard let askAgain, refusals < Vault.passphraseAttempts else { throw refused }
                try askAgain(refused)
                secret = try ask(plan, remote.displayLocation)
            }
        }
    }

    /// The sync that follows setup, on the same remote, in the same turn.
    private func firstSync(
        _ remote: any Remote, progress: ((SyncProgress) -> Void)?
    ) async -> Result<
        SyncReport, any Error
    > {
        defer { refreshNotice() }
        do {
            let store = try look().on().store
            let engine = SyncEngine(vault: vault, remote: remote, recorder: recorder, clock: clock, store: store)
            return .success(try await engine.run(progress: progress, compacting: false))
        } catch {
            return .failure(error)
        }
    }

    /// Runs a step before setup; a failure is recorded as a failed setup for `sync status`.
    private func recordingSetupFailure<Result>(_ step: () async throws -> Result) async throws -> Result {
        do {
            return try await step()
        } catch let interrupted as PromptInterrupted {
            // Stopped by the user at a question, not a setup that failed.
            throw interrupted
        } catch {
            let now = clock.now()
            recorder.record(SyncEvent(phase: .setup, kind: .started, time: now))
            recorder.record(SyncEvent(phase: .setup, kind: .failed, time: now, failure: SyncFailure(error)))
            throw error
        }
    }
}
