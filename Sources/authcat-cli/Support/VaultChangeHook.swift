import AuthCatCore
import AuthCatSync

/// The one place the command line reports that it changed the vault.
///
/// Every command that writes accounts calls `vaultDidChange` after its write
/// transaction committed: `add`, `edit`, `rm`, `restore`, `code` for an HOTP
/// account (its counter advanced), imports and `config set --synced`. Reading
/// commands and `code` for TOTP or Steam accounts must not call it, so that
/// printing a code never waits for anything.
enum VaultChangeHook {
    /// Called once per command, after the change is on disk.
    ///
    /// When sync is on, it starts a detached background push
    /// (`sync now --background`) and returns at once; the push's failures are
    /// recorded for `authcat sync status`. While a `sync watch` runs, it does
    /// nothing: the watch exports the change within a second. It never throws, because the user's
    /// change has already succeeded. `authcat code` never syncs (it must not
    /// start network work); its HOTP counter goes out with the next sync.
    /// - Parameters:
    ///   - vault: the open vault that was just changed.
    ///   - options: the command's vault options (`--home`), for anything that
    ///     needs to find the vault again from another process.
    static func vaultDidChange(_ vault: Vault, options: VaultOptions) {
        guard CommandPath.of(Array(CommandLine.arguments.dropFirst())) != ["authcat", "code"] else { return }
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
