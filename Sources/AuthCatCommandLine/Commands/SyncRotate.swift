import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

extension AuthCat {
    /// `authcat sync rotate [--revoke DEVICE]… [--yes] [--json]`.
    struct SyncRotate: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate",
            abstract: "Move the remote vault to a new sync key; with --revoke, cut a lost device off.",
            discussion: """
                Asks for the sync passphrase (or reads AUTHCAT_SYNC_PASSPHRASE_FILE; with \
                --use-recovery-key, the recovery key from --recovery-key-file or typed): only \
                the passphrase or the recovery key proves the right to rotate. Then confirms \
                on a terminal; scripts pass --yes.

                A new master key is made and sealed to the key of every device that stays; \
                they take it at their next sync without a question (a device offline now \
                takes it when it comes back). Every live record is written again under the \
                new key, then every object of the old key is removed from the remote. A \
                revoked device's next sync stops with the status 'revoked' (exit status 9 in \
                'authcat sync status'); it keeps its local accounts and never syncs with \
                this remote vault again. Killed at any moment, the remaining devices can \
                still read the remote; run it again to finish.

                After a revocation, the lost-device checklist lists every account of the \
                vault (issuer and name; --json lists them too), marking those added after \
                the revoked device's last sync known here: a sync that changes nothing \
                leaves no trace, and its files with its storage credentials read the old \
                key's objects until now. Consider every secret listed known and re-key \
                each at its site.

                Limits: what the revoked device already decrypted stays with it. Storage \
                credentials it holds (S3 keys, WebDAV or rclone passwords, a shared or \
                Syncthing folder) are not authcat's: revoke them with the storage provider, \
                or it can still read the new objects' names and sizes, and delete them. \
                If the sync passphrase leaked, use 'authcat sync passphrase change' instead: \
                it is a rotation too, and revokes in the same step.

                Examples:
                  authcat sync rotate
                  authcat sync rotate --revoke 3f2a --yes
                  AUTHCAT_SYNC_PASSPHRASE_FILE=pass.txt authcat sync rotate --revoke 3f2a9c0d11e2b4a7 --yes --json
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Option(
            help: ArgumentHelp(
                "A device to cut off: its id, its unique name or a unique prefix of its id (repeat for several).",
                valueName: "device"))
        var revoke: [String] = []

        @Flag(name: .shortAndLong, help: "Do not ask for confirmation.")
        var yes = false

        @Flag(help: "Prove the right to rotate with the recovery key instead of the sync passphrase.")
        var useRecoveryKey = false

        @Option(
            help: ArgumentHelp("With --use-recovery-key, the file to read it from.", valueName: "path"),
            completion: .file())
        var recoveryKeyFile: String?

        @Flag(help: "Print what was done as JSON (docs/JSON.md).")
        var json = false

        func validate() throws {
            if recoveryKeyFile != nil, !useRecoveryKey {
                throw ValidationError("--recovery-key-file needs --use-recovery-key")
            }
        }

        func run(in invocation: Invocation) async throws {
            let output = invocation.output
            let service = try SyncService.open(vaultOptions, in: invocation)
            // Named first, so that a word naming no device (or several) is a
            // usage error before anything is asked or changed.
            let directory = try service.devices()
            let revoking = try revoke.map { try DeviceNaming.resolve($0, in: directory) }
            if !yes, !invocation.terminal.standardInputIsTerminal { throw SyncCommandError.rotateNeedsConfirmation }
            // The secret the help says it asks for comes first: a user who types it
            // as told never types it at the y/N question, where it would be echoed.
            let secret: SyncSecret =
                useRecoveryKey
                ? .recoveryKey(try SyncSecretInput.recoveryKey(file: recoveryKeyFile, in: invocation))
                : .passphrase(try SyncSecretInput.passphrase(in: invocation))
            try confirm(revoking: revoking, terminal: invocation.terminal)
            let outcome = try await SyncProgressLine.showing(on: invocation.standardError) { progress in
                try await service.rotate(
                    secret: secret, revoking: revoking.map(\.id), progress: progress,
                    whenBusy: { SyncService.sayWaiting(output) })
            }
            if json { return output.print(try JSONOutput.string(RotationSummary(outcome))) }
            RotationSummary.lines(outcome).forEach { output.print($0) }
        }

        private func confirm(revoking devices: [DeviceDirectory.Device], terminal: Terminal) throws {
            guard !yes else { return }
            let labels = devices.map(\.label).joined(separator: ", ")
            let revoking = devices.isEmpty ? "" : " and cut off \(devices.count == 1 ? "device" : "devices") \(labels)"
            let question = TerminalText.sanitized("move the remote vault to a new sync key\(revoking)? [y/N] ")
            guard try terminal.confirm(question, hint: "add --yes") else { throw SyncCommandError.notRotated }
        }
    }
}
