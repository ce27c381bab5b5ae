import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation

/// What `sync watch` prints of `SyncCoordinator.watch`'s events: a line when
/// it starts, one per sync that changed something, a warning per failure
/// (once until another problem or a success), a note when sync was turned off.
final class SyncWatchOutput {
    private let remote: String
    private let interval: TimeInterval
    private let clock: any Clock
    private let output: Output
    private var lastProblem: String?

    init(remote: String, interval: TimeInterval, clock: any Clock, output: Output) {
        self.remote = remote
        self.interval = interval
        self.clock = clock
        self.output = output
    }

    func show(_ event: SyncCoordinator.WatchEvent) {
        switch event {
        case .started:
            output.print(
                "\(Timestamp.text(clock.now())) watching \(remote): local changes go out within a second, "
                    + "other devices' changes are checked every \(Self.seconds(interval)); Ctrl-C stops")
            // Piped into a log, standard output is block-buffered; say at once that it started.
            output.flushStandardOutput()
        case .synced(let report):
            lastProblem = nil
            guard
                report.importedChanges + report.exportedChanges > 0 || !report.issues.isEmpty
                    || !report.preferenceChanges.isEmpty || report.snapshotWritten
            else { return }
            let lines =
                SyncReportOutput.lines(report)
                + (report.snapshotWritten ? [SyncReportOutput.compactionLine(report)] : [])
            output.print("\(Timestamp.text(clock.now())) " + lines.joined(separator: "\n  "))
            // Piped into a log, standard output is block-buffered; each sync's line goes out now.
            output.flushStandardOutput()
        case .failed(let error):
            let problem = SyncCommandError.describe(error)
            if problem != lastProblem { output.warning(problem) }
            lastProblem = problem
        case .turnedOff:
            output.note("sync was turned off; stopped watching")
        }
    }

    private static func seconds(_ interval: TimeInterval) -> String {
        let whole = interval.rounded() == interval ? "\(Int(interval))" : "\(interval)"
        return interval == 1 ? "second" : "\(whole) seconds"
    }
}
