/// What `SyncSetup.enable` will do on a remote, so the command line knows
/// what to ask for before calling it.
public enum SyncSetupPlan: String, Sendable, Equatable {
    /// The remote holds no vault (or only a deletion marker): a new remote vault
    /// will be made; ask for a new sync passphrase (twice).
    case create
    /// The remote holds a vault this device has not joined: ask for its sync
    /// passphrase or recovery key.
    case join
    /// The remote holds the vault this device joined before: nothing to ask.
    case resume
}
