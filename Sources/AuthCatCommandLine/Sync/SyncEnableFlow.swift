import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

/// The steps of `sync enable` once the options are checked: ask the remote what
/// to do, ask for the right secret, then, in one turn under the run lock, set
/// up, show the recovery key and sync once.
struct SyncEnableFlow {
    let session: SyncSession
    let url: String
    let recoveryKeyFile: String?
    let useRecoveryKey: Bool
    /// The user said on the command line to join a different vault where this device synced before.
    let joinDifferentVault: Bool

    /// - Parameter isOnAlready: asked again once the run lock is held; true ends
    ///   the flow there (another `sync enable` finished while this one asked).
    func run(unlessOnMeanwhile isOnAlready: () throws -> Bool) async throws {
        let remote = try await recordingSetupFailure { try session.remote(url: url) }
        do {
            try await enable(remote, unlessOnMeanwhile: isOnAlready)
            try? await remote.close()
        } catch {
            try? await remote.close()
            throw error
        }
    }

    private func enable(_ remote: any Remote, unlessOnMeanwhile isOnAlready: () throws -> Bool) async throws {
        // Whatever may wait on a person comes before the run lock, so that no
        // other sync of this vault waits on them.
        let plan = try await recordingSetupFailure {
            try await remote.prepare()
            return try await SyncSetup.plan(vault: session.vault, remote: remote, remoteURL: url)
        }
        if plan == .joinDifferentVault { try confirmDifferentVault(remote) }
        if plan == .create { try confirmNewRemoteVault(remote) }
        let secret = try self.secret(for: plan, remote: remote)
        let keyFile = try plan == .create ? recoveryKeyFile.map(SyncRecoveryKeyFile.create) : nil
        try await SyncCoordinator(location: session.location, clock: Invocation.current.clock).withRunLockForSetup {
            if try isOnAlready() { return }
            // The secret was asked for this plan; a remote that changed meanwhile fails the setup.
            let result = try await SyncSetup.enable(
                vault: session.vault, remote: remote, remoteURL: url, secret: secret,
                kdf: Invocation.current.passphraseKDF, recorder: session.recorder,
                expecting: plan)
            // The recovery key file is written only once the remote vault exists.
            try announce(result, remote: remote, keyFile: keyFile)
            // The recovery key is out before the first sync, which can be slow or stopped.
            Output.flushStandardOutput()
            try await firstSync()
        }
    }

    private func secret(for plan: SyncSetupPlan, remote: any Remote) throws -> SyncSecret? {
        switch plan {
        case .create:
            guard !useRecoveryKey else {
                throw SyncCommandError.recoveryKeyNeedsExistingVault(remote: remote.displayLocation)
            }
            return .passphrase(try SyncSecretInput.newPassphrase(environment: session.environment))
        case .join, .joinDifferentVault:
            if useRecoveryKey { return .recoveryKey(try SyncSecretInput.recoveryKey(file: recoveryKeyFile)) }
            return .passphrase(try SyncSecretInput.passphrase(environment: session.environment))
        case .resume:
            return nil
        }
    }

    /// The remote this device synced with now holds another vault: that may be
    /// someone else's, put there to receive this vault's accounts. Asked on a
    /// terminal; scripts say so with --join-different-vault.
    private func confirmDifferentVault(_ remote: any Remote) throws {
        guard !joinDifferentVault else { return }
        guard Terminal.standardInputIsTerminal else {
            throw SyncCommandError.differentVaultNeedsConfirmation(remote: remote.displayLocation)
        }
        let question =
            "\(remote.displayLocation) now holds a different vault than the one this device synced with there. "
            + "Join it, and send this vault's accounts to it? [y/N] "
        guard try Terminal.confirm(question, hint: "add --join-different-vault") else {
            throw SyncCommandError.differentVaultNotJoined
        }
    }

    /// No vault was found where the user pointed: a typo in the location
    /// (`…/remtoe`) would otherwise make a second remote vault, with a new
    /// recovery key, beside the one the user meant. Asked on a terminal;
    /// scripts, which name their location on purpose, are not asked.
    private func confirmNewRemoteVault(_ remote: any Remote) throws {
        guard Terminal.standardInputIsTerminal else { return }
        let question =
            "no authcat vault was found at \(remote.displayLocation). Create a new remote vault there, "
            + "with a new sync passphrase and recovery key? [y/N] "
        guard try Terminal.confirm(question, hint: "run it again and answer y") else {
            throw SyncCommandError.newVaultNotCreated
        }
    }

    private func announce(_ result: SyncEnableResult, remote: any Remote, keyFile: SyncRecoveryKeyFile?) throws {
        switch result.outcome {
        case .created: Output.print("sync is on: created a new remote vault at \(remote.displayLocation)")
        case .joined: Output.print("sync is on: joined the remote vault at \(remote.displayLocation)")
        case .resumed: Output.print("sync is on again with \(remote.displayLocation)")
        }
        guard let recoveryKey = result.recoveryKey else { return }
        if let keyFile {
            try keyFile.write(recoveryKey)
            Output.print("the recovery key was written to \(keyFile.path); keep it safe, apart from this computer")
        } else {
            Output.print("recovery key (shown only now; write it down and keep it apart from this computer):")
            Output.print("  \(recoveryKey)")
        }
    }

    private func firstSync() async throws {
        do {
            let report = try await session.withEngine { engine in
                try await AuthCat.SyncNow.run(engine, progress: SyncProgressLine.forTerminal())
            }
            SyncReportOutput.lines(report).forEach { Output.print($0) }
        } catch {
            throw SyncCommandError.firstSyncFailed(error)
        }
    }

    /// Runs a step before the engine's setup; a failure is recorded as a failed setup for `sync status`.
    private func recordingSetupFailure<Result>(_ step: () async throws -> Result) async throws -> Result {
        do {
            return try await step()
        } catch {
            let now = Invocation.current.now
            session.recorder.record(SyncEvent(phase: .setup, kind: .started, time: now))
            session.recorder.record(SyncEvent(phase: .setup, kind: .failed, time: now, failure: SyncFailure(error)))
            throw error
        }
    }
}
