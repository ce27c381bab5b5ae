import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

extension AuthCat {
    /// `authcat sync status`: the monitor's summary, with an exit status scripts can test.
    struct SyncStatusCommand: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show whether sync works, and exit non-zero when it does not.",
            discussion: """
                Shows the state of setup, import and export (not started, in progress, \
                succeeded, failed, interrupted), the last successful sync, local changes not \
                yet exported and the devices seen, after checking that the remote answers and \
                accepts the credentials (one list request, at most \(Int(probeTimeout.components.seconds)) seconds, \
                counted once rclone has started, within \
                \(Int(RcloneRemote.startTimeout.components.seconds)) seconds, for an rclone: remote; \
                --offline skips it).

                Summary and exit status:
                  off                    0  sync is not on for this vault
                  succeeded              0  the latest import and export succeeded
                  in progress            0  a setup, import or export is running now
                  not started            2  sync is on but has not run yet
                  not syncing            3  set up, but nothing imported since
                  error                  4  a remote problem, lost sync state, or a failed sync
                  no network             5  the remote cannot be reached
                  account not available  6  credentials rejected or missing, bucket or folder
                                            missing
                  remote deleted         7  another device deleted the remote data
                  vault mismatch         8  the remote holds a different vault
                  revoked                9  a key rotation on another device revoked this one
                Exit status 1 means the status itself could not be read.

                --short prints one line of at most 40 columns for a status bar or a \
                prompt (synced 3m ago, 3 changes waiting, error: rollback, off) from what \
                was recorded, without contacting the remote, with the same exit status.

                Remote problems (rejected objects, a rollback, a gap) stay until the remote \
                is repaired and a sync finds it whole. \
                While the status is not 0, every other command prints one warning line about \
                it on standard error.
                """)

        static let probeTimeout: Duration = .seconds(5)

        @OptionGroup var vaultOptions: VaultOptions

        @Flag(help: "Print the status as JSON.")
        var json = false

        @Flag(help: "Do not contact the remote; report only what was recorded.")
        var offline = false

        @Flag(help: "Print one short line for a status bar or a prompt (implies --offline).")
        var short = false

        func validate() throws {
            if short && json { throw ValidationError("--short and --json cannot be used together") }
        }

        func run(in invocation: Invocation) async throws {
            let output = invocation.output
            let status = try await currentStatus(in: invocation).advised
            if short {
                output.print(status.shortLine(now: invocation.now))
            } else if json {
                output.print(try JSONOutput.string(status))
            } else {
                status.textLines().forEach { output.print(TerminalText.sanitized($0)) }
            }
            if !status.summary.isHealthy { throw ExitCode(status.summary.exitCode) }
        }

        private func currentStatus(in invocation: Invocation) async throws -> SyncStatus {
            guard let vault = try vaultOptions.openExistingVault(in: invocation) else {
                return SyncStatus.fold(events: [], local: .off, probe: nil, now: invocation.now)
            }
            return try await SyncService.commandLine(vault, in: invocation).status(
                probe: !(offline || short), timeout: Self.probeTimeout,
                keys: {
                    try? Vault.open(
                        at: vault.location, passphrase: PassphraseSource.withoutPrompt(in: invocation))
                })
        }
    }
}
