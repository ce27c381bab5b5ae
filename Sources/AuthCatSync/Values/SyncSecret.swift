import AuthCatEssentials

/// What unlocks the remote vault's master key: the sync passphrase, or the
/// recovery key shown once when the remote vault was created.
public enum SyncSecret: Sendable {
    case passphrase(SecretBytes)
    /// As the user typed it (UTF-8): spaces, dashes and case do not matter.
    case recoveryKey(SecretBytes)
}
