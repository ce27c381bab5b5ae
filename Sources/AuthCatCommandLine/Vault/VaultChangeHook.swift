import AuthCatCore
import AuthCatEssentials
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
    /// What follows is `SyncService.afterLocalChange(in:clock:)`'s answer. When
    /// sync is on, it starts a detached background push (`authcat-cli sync
    /// now --background --home <vault>`, see `DetachedLauncher`) and returns at
    /// once; the push's failures are recorded for `authcat sync status`. While
    /// a `sync watch` runs, it does nothing: the watch exports the change
    /// within a second. It never throws, because the user's change has
    /// already succeeded.
    /// - Parameter vault: the open vault that was just changed.
    ///
    /// The push cannot ask for the vault's passphrase. A key this command
    /// unwrapped with the passphrase goes to it over a pipe (never argv, the
    /// environment or disk). A push that finds no key (the keyring's entry
    /// expired meanwhile) leaves the change pending for the next sync.
    static func vaultDidChange(_ vault: Vault) {
        guard SyncService.afterLocalChange(in: vault.location, clock: Invocation.current.clock) == .backgroundPush
        else { return }
        // Every write loads the key before its transaction, so a key typed for this change is here.
        let key = vault.keyForDetachedWork()
        do {
            let arguments = ["sync", "now", "--background", "--home", vault.location.folder.path]
            var input: [UInt8] = key?.withUnsafeBytes { Array($0) } ?? []
            defer { Wipe.bytes(&input) }
            try Invocation.current.launcher.launch(
                arguments + (key == nil ? [] : ["--key-on-stdin"]),
                input: key == nil ? nil : input)
        } catch {
            let problem =
                (error as? DetachedLauncher.Failure).map {
                    SyncCommandError.cannotStartBackgroundSync(reason: $0.reason)
                } ?? error
            Output.warning(SyncCommandError.describe(problem, otherwise: .syncNow))
        }
    }
}
