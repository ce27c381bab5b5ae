import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

extension AuthCat {
    /// `authcat sync now`: pull other devices' changes, then push this device's.
    struct SyncNow: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "now",
            abstract: "Sync once: import other devices' changes, then export this device's.",
            discussion: """
                Prints what was imported and exported, objects rejected (they failed \
                authentication; everything else still syncs) and synced preferences that \
                changed, with the reason. When \(SyncReport.compactionThreshold) or more of this \
                device's batches piled up since its last snapshot, a one-line hint on standard \
                error suggests 'authcat sync compact'. Progress is shown on standard error when it is a \
                terminal and the sync takes a while. Exit status 1 when the sync failed; \
                4 when it finished but the remote has problems that stay until it is repaired \
                (rejected objects, a rollback, a gap); see 'authcat sync status' for the details.
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Flag(help: "Print the report as JSON.")
        var json = false

        /// Set by the background push that follows a change: quiet, never waits behind another push.
        @Flag(help: .hidden)
        var background = false

        /// With `--background`: the vault key, which the change's command unwrapped with the passphrase, is on standard input.
        @Flag(help: .hidden)
        var keyOnStdin = false

        func run(in invocation: Invocation) async throws {
            let output = invocation.output
            if background {
                return await SyncBackgroundPush.run(vaultOptions, keyOnInput: keyOnStdin, in: invocation)
            }
            let service = try SyncService.open(vaultOptions, in: invocation)
            let outcome = try await SyncProgressLine.showing(on: invocation.standardError) { progress in
                try await service.now(progress: progress, whenBusy: { SyncService.sayWaiting(output) })
            }
            let report = outcome.report
            if json {
                output.print(try SyncReportOutput.json(report))
            } else {
                SyncReportOutput.lines(report).forEach { output.print($0) }
            }
            if let hint = SyncReportOutput.compactionHint(report) { output.note(hint) }
            let problems = outcome.local.rejectedObjects.count + outcome.local.standingIssues.count
            if problems > 0 {
                let status = SyncStatus.Summary.error.exitCode
                output.error(SyncCommandError.remoteHasProblems(problems).description, status: status)
                throw ExitCode(status)
            }
        }
    }
}
