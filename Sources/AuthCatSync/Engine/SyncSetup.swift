import AuthCatCore
import Foundation

/// Turning sync on: creating a remote vault, joining one, or resuming.
public enum SyncSetup {
    /// What `enable` would do with this remote; lists the remote once.
    public static func plan(vault: Vault, remote: any Remote) async throws -> SyncSetupPlan {
        throw SyncError(.other, "setup is not implemented yet")
    }

    /// Turns sync on for `vault` with `remote`.
    ///
    /// - On a remote with no vault (or only a deletion marker), makes a new
    ///   remote vault: random master key, wrapped under an Argon2id key from
    ///   the passphrase (`kdf`, default libsodium's moderate limits) and under
    ///   a new recovery key, returned once in the result.
    /// - On a remote holding a vault, joins it with the passphrase or recovery
    ///   key; a wrong one throws `.wrongPassphrase` and nothing is written.
    /// - On the remote vault this device joined before, resumes; `secret` may be nil.
    ///
    /// It does not sync; open a `SyncEngine` and call `sync` next.
    public static func enable(vault: Vault, remote: any Remote, remoteURL: String, secret: SyncSecret?,
                              kdf: KDFParameters? = nil, recorder: SyncEventRecorder,
                              clock: Clock = SystemClock()) async throws -> SyncEnableResult {
        throw SyncError(.other, "setup is not implemented yet")
    }
}
