import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

/// What the sync commands share: the vault, the monitor's event log, and
/// remotes made with this process's environment and home folder.
struct SyncSession {
    let vault: Vault
    let recorder: SyncEventLog
    let environment: [String: String]

    /// The existing vault at the options' location; throws `VaultError.noVault` when there is none.
    static func open(_ options: VaultOptions) throws -> SyncSession {
        session(try options.openVault(), options: options)
    }

    /// The vault, created first if needed (a new machine joining a remote vault starts empty).
    static func openOrCreate(_ options: VaultOptions) throws -> SyncSession {
        session(try options.openOrCreateVault(), options: options)
    }

    private static func session(_ vault: Vault, options: VaultOptions) -> SyncSession {
        SyncSession(vault: vault, recorder: SyncEventLog(location: vault.location), environment: options.environment)
    }

    var location: VaultLocation { vault.location }

    /// Says on standard error why a sync command waits (`SyncCoordinator.withRunLock`'s `whenBusy`).
    static func sayWaiting() {
        Output.note("waiting for another sync of this vault to finish")
    }

    /// The remote for a location URL; S3 credentials come from the environment or ~/.aws/credentials,
    /// a WebDAV password from `WebDAVPasswordInput`.
    /// Without HOME in the invocation's environment, home is the user's from the password database.
    func remote(url: String, createOnlyEnforced: Bool? = nil) throws -> any Remote {
        let home =
            environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? getpwuid(getuid()).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } } ?? ""
        return try makeRemote(
            location: url, environment: environment, homeDirectory: home,
            password: WebDAVPasswordInput.source(environment: environment), createOnlyEnforced: createOnlyEnforced)
    }

    /// This device's sync state, with the count of pending local changes.
    func localState() throws -> SyncLocalState {
        try SyncState.localState(in: location, vault: vault)
    }

    /// Runs `body` with the engine and its remote, closing the remote afterwards.
    ///
    /// - Parameter evenIfOff: also when sync was set up but is off on this
    ///   device (for `sync disable`'s remote part).
    /// - Throws: `SyncCommandError.syncOff` when sync is off on this device
    ///   (or, with `evenIfOff`, was never set up).
    ///   Throws the engine's `SyncError` when sync was set up but its state was lost.
    ///
    /// Afterwards, whatever happened, the sync notice is brought up to date.
    func withEngine<Result>(evenIfOff: Bool = false, _ body: (SyncEngine) async throws -> Result) async throws -> Result
    {
        defer { SyncNotice.refresh(in: location, now: Invocation.current.now) }
        if let lost = SyncState.lostStateError(in: location) { throw lost }
        let local = try SyncState.localState(in: location)
        guard evenIfOff || SyncState.isEnabled(in: location), let url = local.remoteLocation else {
            throw SyncCommandError.syncOff
        }
        // The probe's answer from `enable`: a WebDAV remote need not probe again.
        let remote = try remote(url: url, createOnlyEnforced: local.createOnlyEnforced)
        do {
            let opened =
                evenIfOff
                ? try SyncEngine.openSetUp(vault: vault, remote: remote, recorder: recorder)
                : try SyncEngine.open(vault: vault, remote: remote, recorder: recorder)
            guard let engine = opened else { throw SyncCommandError.syncOff }
            let result = try await body(engine)
            try? await remote.close()
            return result
        } catch {
            try? await remote.close()
            throw error
        }
    }
}
