import AuthCatCore
import AuthCatSync

/// The one place the command line reports that it changed the vault.
///
/// Every command that writes accounts calls `vaultDidChange` after its write
/// transaction committed: `add`, `edit`, `rm`, `restore`, imports and `config
/// set --synced`. Reading commands and `code` never call it, so that printing
/// a code never waits for anything or starts network work: an HOTP counter
/// that `code` advanced goes out with the next sync.
enum VaultChangeHook {
    /// Called once per command, after the change is on disk.
    ///
    /// When sync is on, it starts a detached background push
    /// (`sync now --background`) and returns at once; the push's failures are
    /// recorded for `authcat sync status`. While a `sync watch` runs, it does
    /// nothing: the watch exports the change within a second. It never throws, because the user's
    /// change has already succeeded.
    /// - Parameters:
    ///   - vault: the open vault that was just changed.
    ///   - options: the command's vault options (`--home`), for anything that
    ///     needs to find the vault again from another process.
    static func vaultDidChange(_ vault: Vault, options: VaultOptions) {
        guard SyncState.isEnabled(in: vault.location) else {
            // Off, or set up but its state lost: then the next commands warn until the user acts.
            if SyncState.lostStateError(in: vault.location) != nil { SyncNotice.refresh(in: vault.location) }
            return
        }
        guard !SyncLockFile.isWatched(vault.location) else { return }
        do {
            try SyncBackgroundLauncher.launch(vaultFolder: vault.location.folder.path)
        } catch {
            Output.warning("\(SyncCommandError.describe(error)); run authcat sync now")
        }
    }
}
