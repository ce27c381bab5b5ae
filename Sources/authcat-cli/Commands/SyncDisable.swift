import ArgumentParser
import AuthCatCore
import AuthCatSync

extension AuthCat {
    /// `authcat sync disable`: stop syncing here, on every device, or delete the remote data.
    struct SyncDisable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "disable",
            abstract: "Turn sync off; local data is always kept.",
            discussion: """
                Without options, only this device stops syncing; turning sync on again later \
                exports what changed meanwhile. With --everywhere, authcat leaves a signed \
                marker on the remote so every device stops. With --delete-remote, it also \
                deletes every device's synced data from the remote (asking first on a \
                terminal; scripts must add --yes). Other devices stop and keep their data.
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Flag(help: "Turn sync off on every device.")
        var everywhere = false

        @Flag(help: "Delete the synced data from the remote too (implies --everywhere).")
        var deleteRemote = false

        @Flag(name: .shortAndLong, help: "Do not ask for confirmation of --delete-remote.")
        var yes = false

        func run() async throws {
            guard let vault = try vaultOptions.openExistingVault(), SyncState.isEnabled(in: vault.location) else {
                print("sync is already off")
                return
            }
            let session = SyncSession(vault: vault, recorder: SyncEventLog(location: vault.location),
                                      environment: vaultOptions.environment)
            let remote = try session.localState().remoteLocation ?? "the remote"
            if deleteRemote { try confirmDeletion(of: remote) }
            let runLock = try SyncLockFile.run(in: vault.location)
            runLock.lock()
            defer { runLock.unlock() }
            do {
                try await session.withEngine { engine in
                    try await engine.disable(everywhere: everywhere || deleteRemote, deleteRemote: deleteRemote)
                }
            } catch where !SyncState.isEnabled(in: vault.location) {
                throw SyncCommandError.remoteNotUpdated(error)
            }
            print(deleteRemote ? "sync is off on every device and the remote data at \(remote) was deleted; local data is kept"
                  : everywhere ? "sync is off on every device; local data is kept"
                  : "sync is off on this device; local data is kept")
        }

        private func confirmDeletion(of remote: String) throws {
            guard !yes else { return }
            guard Terminal.standardInputIsTerminal else { throw SyncCommandError.deleteNeedsConfirmation }
            let question = "delete every device's synced data at \(remote)? Local data is kept. [y/N] "
            guard try Terminal.confirm(question, hint: "add --yes") else { throw SyncCommandError.notDeleted }
        }
    }
}
