/// What enabling sync on a remote will do, so the command line knows
/// what to ask for before calling it.
public enum SyncSetupPlan: String, Sendable, Equatable {
    /// The remote holds no vault (or only a deletion marker): a new remote vault
    /// will be made; ask for a new sync passphrase (twice).
    case create
    /// The remote holds a vault this device has not joined: ask for its sync
    /// passphrase or recovery key.
    case join
    /// The remote at the location this device synced with before now holds
    /// another vault (the "vault mismatch"): the user confirms joining it
    /// first, then gives its passphrase or recovery key. `enable` joins it
    /// only when passed this plan as `expecting`.
    case joinDifferentVault
    /// The remote holds the vault this device joined before: nothing to ask.
    case resume
}
