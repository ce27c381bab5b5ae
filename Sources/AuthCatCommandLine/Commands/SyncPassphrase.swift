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

    /// `authcat sync passphrase change [--new-recovery-key [--recovery-key-file F]]`.
    struct SyncPassphraseChange: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "change",
            abstract: "Change the sync passphrase on the remote; other devices keep syncing without a question.",
            discussion: """
                Asks for the current sync passphrase (or reads AUTHCAT_SYNC_PASSPHRASE_FILE; \
                with --use-recovery-key, the recovery key from --recovery-key-file or typed), \
                then for the new one twice (or reads the first line of \
                AUTHCAT_NEW_SYNC_PASSPHRASE_FILE). The master key does not change, so nothing \
                is re-encrypted: the remote's manifest is rewritten in one atomic write, and \
                a kill leaves the old or the new passphrase working; run it again to finish. \
                Afterwards the old passphrase no longer joins. --new-recovery-key also \
                replaces the recovery key (shown once, or written to the new 0600 file \
                --recovery-key-file); the old one then no longer joins.

                Limits: a copy of the old manifest, kept by someone who also knows the old \
                passphrase, still opens the master key. If the passphrase leaked, use \
                --new-recovery-key and then rotate the key ('authcat sync rotate'); \
                devices that already synced keep what they read.
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

        func validate() throws {
            if newRecoveryKey, useRecoveryKey, recoveryKeyFile != nil {
                throw ValidationError(
                    "--recovery-key-file cannot both hold the current recovery key and receive the new one")
            }
        }

        func run(in invocation: Invocation) async throws {
            let output = invocation.output
            let service = try SyncService.open(vaultOptions, in: invocation)
            // Every question before anything is written, and before the run lock.
            let current: SyncService.Secret =
                useRecoveryKey
                ? .recoveryKey(try SyncSecretInput.recoveryKey(file: recoveryKeyFile, in: invocation))
                : .passphrase(try SyncSecretInput.passphrase(in: invocation))
            let new = try SyncSecretInput.newPassphrase(variable: SyncSecretInput.newPassphraseVariable, in: invocation)
            let keyFile =
                try newRecoveryKey
                ? recoveryKeyFile.map { try SyncRecoveryKeyFile.create($0, standard: invocation.standardDescriptors) }
                : nil
            let outcome = try await service.changePassphrase(
                current: current, newPassphrase: new, newRecoveryKey: newRecoveryKey,
                kdf: invocation.passphraseKDF,
                announce: { recoveryKey, _ in
                    guard let recoveryKey else { return }
                    // Out before the manifest that needs it is written.
                    if let keyFile {
                        try keyFile.write(recoveryKey)
                    } else {
                        output.print("new recovery key (write it down and keep it apart from this computer):")
                        output.print("  \(recoveryKey)")
                    }
                    output.flushStandardOutput()
                }, whenBusy: { SyncService.sayWaiting(output) })
            output.print("the sync passphrase of \(outcome.remote) was changed; other devices keep syncing")
            if outcome.recoveryKey != nil {
                if let keyFile { output.print("the new recovery key was written to \(keyFile.path)") }
                output.print("the old recovery key no longer works")
            }
        }
    }
}
