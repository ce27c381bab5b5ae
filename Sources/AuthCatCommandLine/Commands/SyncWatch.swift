import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

extension AuthCat {
    /// `authcat sync watch`: keep syncing until stopped.
    struct SyncWatch: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Keep syncing until stopped (Ctrl-C, SIGTERM, or sync turned off).",
            discussion: """
                Exports a local change within about a second, imports other devices' changes \
                every --interval seconds, and stops as soon as sync is turned off (by \
                'authcat sync disable' in another process, or by another device). When \
                compaction is due (see 'authcat sync compact') and no local change was made for \
                --interval seconds, the next check compacts instead of only syncing. It says \
                when it starts watching, and each sync that changed something prints one line; failures are warnings on standard \
                error and the next attempt follows the interval. A vault mismatch stops it \
                with exit status 1.
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Option(help: ArgumentHelp("Seconds between checks for other devices' changes.", valueName: "seconds"))
        var interval: Double = 30

        func validate() throws {
            guard interval >= 1, interval <= 86_400 else {
                throw ValidationError("--interval must be between 1 and 86400 seconds")
            }
        }

        func run(in invocation: Invocation) async throws {
            let service = try SyncService.open(vaultOptions, in: invocation)
            let shown = SyncWatchOutput(
                remote: try service.remoteWhileOn(), interval: interval, clock: invocation.clock,
                output: invocation.output)
            try await StopSignal.catching { stop in
                try await service.watch(interval: interval, isStopped: { stop.isStopped }, report: shown.show)
            }
        }
    }
}
