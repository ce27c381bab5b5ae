/// What a user can do about a problem, named by the library that found it.
///
/// Libraries say what happened and name the step; the command line words it
/// (`NextStep.advice` in AuthCatCommandLine), so no library spells a command.
/// The raw values are stored in `sync-events.log` (docs/FORMAT.md §6): add
/// cases, never rename one.
public enum NextStep: String, Codable, CaseIterable, Sendable {
    /// Create the vault by adding a first account.
    case addAccount = "add_account"
    /// Protect the vault key with a passphrase.
    case setPassphrase = "set_passphrase"
    /// Change the passphrase that protects the vault key.
    case changePassphrase = "change_passphrase"
    /// Forget the unlocked key before stepping away.
    case lock
    /// Ask another time server.
    case nameTimeServer = "name_time_server"
    /// Run a sync now.
    case syncNow = "sync_now"
    /// Run a sync now to confirm that the remote data was deleted, then set up a new remote vault.
    case confirmRemoteDeletion = "confirm_remote_deletion"
    /// Write a snapshot, so the remote holds fewer batches.
    case compact
    /// Repair the remote: put objects back from a good copy, or compact on the device concerned.
    case repairRemote = "repair_remote"
    /// Read the full sync status.
    case seeSyncStatus = "see_sync_status"
    /// Turn sync on (again).
    case enableSync = "enable_sync"
    /// Turn sync off here, then on again, to join the remote vault anew.
    case rejoinSync = "rejoin_sync"
}
