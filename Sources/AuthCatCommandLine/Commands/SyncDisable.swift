import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatSync

extension AuthCat {
    /// `authcat sync disable`: stop syncing here, on every device, or delete the remote data.
    struct SyncDisable: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "disable",
            abstract: "Turn sync off; local data is always kept.",
            discussion: """
                Without options, only this device stops syncing; turning sync on again later \
                exports what changed meanwhile. With --everywhere, authcat leaves a signed \
                marker on the remote so every device stops. With --delete-remote, it also \
                deletes every device's synced data from the remote (asking first on a \
                terminal; scripts must add --yes). Other devices stop and keep their data. \
                Both options also work after sync was turned off on this device, as long as \
                it was set up here once: the remote and its key are kept locally. After another \
                device deleted the remote data (or the remote came to hold another vault), a \
                plain 'sync disable' acknowledges it: sync status says off again and commands \
                stop warning.
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Flag(help: "Turn sync off on every device.")
        var everywhere = false

        @Flag(help: "Delete the synced data from the remote too (implies --everywhere).")
        var deleteRemote = false

        @Flag(name: .shortAndLong, help: "Do not ask for confirmation of --delete-remote.")
        var yes = false

        func run(in invocation: Invocation) async throws {
            let output = invocation.output
            guard let vault = try vaultOptions.openExistingVault(in: invocation) else {
                guard !(everywhere || deleteRemote) else { throw SyncCommandError.neverSetUp }
                return output.print("sync is already off")
            }
            // Reaching the remote needs the vault key: its passphrase, if it has
            // one, is asked before --delete-remote's question, where it would be echoed.
            if everywhere || deleteRemote { try vault.unlock() }
            let outcome: SyncService.DisableOutcome
            do {
                outcome = try await SyncService.commandLine(vault, in: invocation).disable(
                    everywhere: everywhere, deleteRemote: deleteRemote,
                    confirmDeletion: { try confirmDeletion(of: $0, syncOn: $1, in: invocation) },
                    whenBusy: { SyncService.sayWaiting(output) })
            } catch let failure as SyncService.RemoteNotUpdated {
                throw SyncCommandError.remoteNotUpdated(failure.cause)
            }
            switch outcome {
            case .alreadyOff:
                output.print("sync is already off")
            case .acknowledgedStop:
                output.print("acknowledged: sync stays off on this device; local data is kept")
            case .forgotLostState(let setAside, let remote):
                if let setAside { output.print("the damaged sync state was set aside as \(setAside)") }
                output.print(
                    "sync is off on this device; local data is kept. To sync again as a new device, run: "
                        + "authcat sync enable --remote \(remote ?? "URL")")
            case .lostStateCannotReachRemote:
                throw SyncCommandError.lostStateCannotReachRemote
            case .neverSetUp:
                throw SyncCommandError.neverSetUp
            case .disabled(let remote):
                output.print(
                    deleteRemote
                        ? "sync is off on every device and the remote data at \(remote) was deleted; local data is kept"
                        : everywhere
                            ? "sync is off on every device; local data is kept"
                            : "sync is off on this device; local data is kept")
            }
        }

        private func confirmDeletion(of remote: String, syncOn: Bool, in invocation: Invocation) throws {
            guard !yes else { return }
            guard invocation.terminal.standardInputIsTerminal else { throw SyncCommandError.deleteNeedsConfirmation }
            let question = "delete every device's synced data at \(remote)? Local data is kept. [y/N] "
            guard try TypedAnswer.confirm(question, hint: "add --yes", in: invocation) else {
                throw SyncCommandError.notDeleted(syncOn: syncOn)
            }
        }
    }
}
