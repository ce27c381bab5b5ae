import ArgumentParser
import AuthCatCore
import AuthCatEssentials
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

        func run() async throws {
            let remoteToo = everywhere || deleteRemote
            let vault = try vaultOptions.openExistingVault()
            if let vault, SyncState.lostStateError(in: vault.location) != nil {
                return try await forgetLostState(vault)
            }
            let wasOn = vault.map { SyncState.isEnabled(in: $0.location) } ?? false
            guard wasOn || remoteToo else {
                if let vault, try await SyncState.acknowledgeStop(in: vault.location, whenBusy: SyncSession.sayWaiting)
                {
                    SyncNotice.refresh(in: vault.location, now: Invocation.current.now)
                    Output.print("acknowledged: sync stays off on this device; local data is kept")
                } else {
                    Output.print("sync is already off")
                }
                return
            }
            guard let vault else { throw SyncCommandError.neverSetUp }
            let session = SyncSession(
                vault: vault, recorder: SyncEventLog(location: vault.location),
                environment: vaultOptions.environment)
            // After sync was turned off here, the state still names the remote and holds its sealed key.
            guard let remote = try session.localState().remoteLocation else { throw SyncCommandError.neverSetUp }
            if deleteRemote { try confirmDeletion(of: remote, syncOn: wasOn) }
            try await SyncCoordinator(location: vault.location, clock: Invocation.current.clock).withRunLock {
                do {
                    try await session.withEngine(evenIfOff: true) { engine in
                        try await engine.disable(everywhere: remoteToo, deleteRemote: deleteRemote)
                    }
                } catch  where !SyncState.isEnabled(in: vault.location) {
                    throw SyncCommandError.remoteNotUpdated(error)
                }
            }
            SyncNotice.refresh(in: vault.location, now: Invocation.current.now)
            Output.print(
                deleteRemote
                    ? "sync is off on every device and the remote data at \(remote) was deleted; local data is kept"
                    : everywhere
                        ? "sync is off on every device; local data is kept"
                        : "sync is off on this device; local data is kept")
        }

        /// Sync was set up but its state is lost: only forgetting it is
        /// possible here (the remote's key went with the state).
        private func forgetLostState(_ vault: Vault) async throws {
            guard !(everywhere || deleteRemote) else { throw SyncCommandError.lostStateCannotReachRemote }
            let remote = try SyncState.localState(in: vault.location).remoteLocation
            let setAside = try await SyncState.forgetLostState(
                in: vault.location, now: Invocation.current.now,
                whenBusy: SyncSession.sayWaiting)
            SyncNotice.refresh(in: vault.location, now: Invocation.current.now)
            if let setAside { Output.print("the damaged sync state was set aside as \(setAside)") }
            Output.print(
                "sync is off on this device; local data is kept. To sync again as a new device, run: "
                    + "authcat sync enable --remote \(remote ?? "URL")")
        }

        private func confirmDeletion(of remote: String, syncOn: Bool) throws {
            guard !yes else { return }
            guard Terminal.standardInputIsTerminal else { throw SyncCommandError.deleteNeedsConfirmation }
            let question = "delete every device's synced data at \(remote)? Local data is kept. [y/N] "
            guard try Terminal.confirm(question, hint: "add --yes") else {
                throw SyncCommandError.notDeleted(syncOn: syncOn)
            }
        }
    }
}
