/// What a user can do about a problem, named by the library that found it.
///
/// Libraries say what happened and name the step; the command line words it
/// (`NextStep.advice` in AuthCatCommandLine), so no library spells a command
/// or an option.
///
/// The names are stored in `sync-events.log` (docs/FORMAT.md §6): add
/// cases, never rename one.
public enum NextStep: String, Codable, CaseIterable, Sendable {
    /// Create the vault by adding a first account.
    case addAccount
    /// Protect the vault key with a passphrase.
    case setPassphrase
    /// Change the passphrase that protects the vault key.
    case changePassphrase
    /// Forget the unlocked key before stepping away.
    case lock
    /// Ask another time server.
    case nameTimeServer
    /// Run a sync now.
    case syncNow
    /// Run a sync now to confirm that the remote data was deleted, then set up a new remote vault.
    case confirmRemoteDeletion
    /// Write a snapshot, so the remote holds fewer batches.
    case compact
    /// Repair the remote: put objects back from a good copy, or compact on the device concerned.
    case repairRemote
    /// Read the full sync status.
    case seeSyncStatus
    /// Turn sync on (again).
    case enableSync
    /// Turn sync off here, then on again, to join the remote vault anew.
    case rejoinSync
    /// Turn sync off here, then on again with the remote that holds this vault.
    case switchRemote
    /// Run the command again, allowed to replace the existing file.
    case replaceFile
    /// Import again, naming the file's format.
    case nameImportFormat
    /// Import again, reading the QR codes in the image.
    case readQRCodes
    /// Convert the image to PNG, then import its QR codes.
    case convertToPNG
    /// Fix the invalid entries, or import again leaving them out.
    case skipInvalidEntries
    /// Turn sync on again, confirming that this device joins the different
    /// vault the remote it synced with before now holds.
    case joinDifferentVault
}
