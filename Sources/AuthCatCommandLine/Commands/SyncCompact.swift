import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

extension AuthCat {
    /// `authcat sync compact`: replace this device's batches on the remote with one snapshot.
    struct SyncCompact: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "compact",
            abstract: "Sync once, then replace this device's change batches on the remote with one snapshot.",
            discussion: """
                Every sync that exports something adds one small batch to the remote. A device \
                joining later, or one that was away for long, reads them all; a snapshot \
                replaces them with one object. Ordinary syncs never write a snapshot, because \
                it is as large as the whole vault; 'authcat sync watch' compacts when the \
                vault has been idle, 'authcat sync now' and 'authcat sync status' say when \
                compaction is due (after \(SyncReport.compactionThreshold) batches), and this \
                command does it now.

                It first syncs like 'authcat sync now' (imports, then exports pending local \
                changes), then writes the snapshot and removes the batches and older snapshots \
                it covers. Nothing is written when no batch was added since the last snapshot. \
                Only this device's objects change; other devices read the snapshot at their next \
                sync. Progress is shown on standard error when it is a terminal and it takes a \
                while. Exit status 1 when it failed; see 'authcat sync status' for the details.
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Flag(help: "Print the report as JSON.")
        var json = false

        func run(in invocation: Invocation) async throws {
            let output = invocation.output
            let service = try SyncService.open(vaultOptions, in: invocation)
            let report = try await SyncProgressLine.showing(on: invocation.standardError) { progress in
                try await service.compact(progress: progress, whenBusy: { SyncService.sayWaiting(output) })
            }.report
            if json {
                output.print(try SyncReportOutput.json(report))
            } else {
                (SyncReportOutput.lines(report) + [SyncReportOutput.compactionLine(report)]).forEach {
                    output.print($0)
                }
            }
        }
    }
}
