import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

extension AuthCat {
    /// `authcat sync passphrase …`: the sync passphrase of the remote vault.
    struct SyncPassphrase: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "passphrase",
            abstract: "Change the sync passphrase (and the recovery key) of the remote vault.",
            subcommands: [SyncPassphraseChange.self])
    }

    /// `authcat sync passphrase change [--new-recovery-key [--recovery-key-file F]] [--revoke DEVICE]… [--json]`.
    struct SyncPassphraseChange: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "change",
            abstract:
                "Change the sync passphrase: new keys on the remote; other devices keep syncing without a question.",
            discussion: """
                Asks for the current sync passphrase (or reads AUTHCAT_SYNC_PASSPHRASE_FILE; \
                with --use-recovery-key, the recovery key from --recovery-key-file or typed), \
                then for the new one twice (or reads the first line of \
                AUTHCAT_NEW_SYNC_PASSPHRASE_FILE).

                A passphrase change is a key rotation: a new master key is sealed to every \
                device that stays (they take it at their next sync without a question), every \
                live record is written again under it, and the old key's objects are removed. \
                Afterwards the old passphrase, with any old copy of anything on the remote, \
                opens nothing written from then on, and no device goes back to an older \
                manifest. The recovery key keeps working without being typed; \
                --new-recovery-key replaces it too (shown once, or written to the new 0600 \
                file --recovery-key-file), for a recovery key that leaked.

                It lists the devices that joined since the sync passphrase was last set: \
                whoever held a leaked passphrase could have joined one. On a terminal it \
                offers to revoke them in the same step. Elsewhere (a script, --json) each \
                must be named: --revoke DEVICE cuts it off, --keep-joined keeps the rest; \
                without either the passphrase is not changed. Killed at any moment, the \
                old or the new passphrase is in force; run it again to finish.

                Examples:
                  authcat sync passphrase change
                  authcat sync passphrase change --new-recovery-key --revoke 3f2a
                  AUTHCAT_SYNC_PASSPHRASE_FILE=old.txt AUTHCAT_NEW_SYNC_PASSPHRASE_FILE=new.txt authcat sync passphrase change --json
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Flag(help: "Also make a new recovery key; the old one stops working.")
        var newRecoveryKey = false

        @Flag(help: "Prove the right to change it with the recovery key instead of the current passphrase.")
        var useRecoveryKey = false

        @Option(
            help: ArgumentHelp(
                "With --new-recovery-key, a new file to write the new recovery key to (mode 0600); with --use-recovery-key, the file to read the current one from.",
                valueName: "path"), completion: .file())
        var recoveryKeyFile: String?

        @Option(
            help: ArgumentHelp(
                "A device to cut off in the same step: its id, its unique name or a unique prefix of its id (repeat for several).",
                valueName: "device"))
        var revoke: [String] = []

        @Flag(
            help:
                "Without a terminal, keep the devices joined since the passphrase was last set that --revoke does not name."
        )
        var keepJoined = false

        @Flag(help: "Print what was done as JSON (docs/JSON.md).")
        var json = false

        func validate() throws {
            if newRecoveryKey, useRecoveryKey, recoveryKeyFile != nil {
                throw ValidationError(
                    "--recovery-key-file cannot both hold the current recovery key and receive the new one")
            }
            if json, newRecoveryKey, useRecoveryKey || recoveryKeyFile == nil {
                // Standard output holds the JSON document: the new key goes to a file of its own.
                throw ValidationError("--json with --new-recovery-key needs --recovery-key-file for the new key")
            }
        }

        func run(in invocation: Invocation) async throws {
            let output = invocation.output
            let service = try SyncService.open(vaultOptions, in: invocation)
            // A word naming no device is a usage error before anything is asked.
            let revoking = try revoke.map { try DeviceNaming.resolve($0, in: try service.devices()).id }
            // Every secret before anything is written, and before the run lock.
            let current: SyncSecret =
                useRecoveryKey
                ? .recoveryKey(try SyncSecretInput.recoveryKey(file: recoveryKeyFile, in: invocation))
                : .passphrase(try SyncSecretInput.passphrase(in: invocation))
            let new = try SyncSecretInput.newPassphrase(variable: SyncSecretInput.newPassphraseVariable, in: invocation)
            let keyFile =
                try newRecoveryKey
                ? recoveryKeyFile.map { try SyncRecoveryKeyFile.create($0, standard: invocation.standardDescriptors) }
                : nil
            let outcome = try await SyncProgressLine.showing(on: invocation.standardError) { progress in
                try await service.changePassphrase(
                    current: current, newPassphrase: new, newRecoveryKey: newRecoveryKey, revoking: revoking,
                    kdf: invocation.passphraseKDF,
                    chooseRevocations: { try offerRevocation(of: $0, in: invocation) },
                    announce: { recoveryKey, _ in
                        guard let recoveryKey else { return }
                        // Out before anything that needs it is written.
                        if let keyFile {
                            try keyFile.write(recoveryKey)
                        } else {
                            output.print("new recovery key (write it down and keep it apart from this computer):")
                            output.print("  \(recoveryKey)")
                        }
                        output.flushStandardOutput()
                    }, progress: progress, whenBusy: { SyncService.sayWaiting(output) })
            }
            if json { return output.print(try JSONOutput.string(PassphraseChangeSummary(outcome))) }
            PassphraseChangeSummary.lines(outcome, keyFile: keyFile?.path).forEach { output.print($0) }
        }

        /// Names the devices that joined since the passphrase was last set and,
        /// on a terminal, asks which to revoke now. Elsewhere each must have been
        /// named (`--revoke`, or `--keep-joined` for the rest): a device joined
        /// with a leaked passphrase must never get the new key by default.
        private func offerRevocation(
            of devices: [DeviceDirectory.Device], in invocation: Invocation
        ) throws -> [String] {
            guard !devices.isEmpty else { return [] }
            let labels = TerminalText.sanitized(devices.map(\.label).joined(separator: ", "))
            invocation.output.note(
                "devices that joined since the sync passphrase was last set (whoever knew it could have "
                    + "joined one): " + labels)
            guard invocation.terminal.standardInputIsTerminal, !json else {
                let listed = DeviceDirectory(devices: devices)
                let named = Set(revoke.compactMap { try? listed.resolve($0).id })
                let unnamed = devices.filter { !named.contains($0.id) }
                guard unnamed.isEmpty || keepJoined else {
                    throw SyncCommandError.joinedDevicesUnnamed(
                        TerminalText.sanitized(unnamed.map(\.label).joined(separator: ", ")))
                }
                return []
            }
            let answer = try invocation.terminal.ask(
                "revoke any of them now? type their names or ids separated by spaces, or press Enter for none: ",
                hint: "use --revoke DEVICE")
            let directory = DeviceDirectory(devices: devices)
            return try answer.split(separator: " ").map { try DeviceNaming.resolve(String($0), in: directory).id }
        }
    }
}
