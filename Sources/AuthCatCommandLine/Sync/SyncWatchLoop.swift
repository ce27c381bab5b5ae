import AuthCatCore
import AuthCatSync
import Foundation

/// The loop behind `sync watch`: cheap checks every 250 ms, a sync when the
/// vault changed or the interval passed, and a compaction instead of that
/// sync once it is due and the vault has had no local change for an interval.
///
/// The checks are the newest history number (one indexed SQLite read) and
/// whether sync is still on (a file check, then one row); neither touches
/// the remote.
struct SyncWatchLoop {
    static let pollInterval: Duration = .milliseconds(250)

    let session: SyncSession
    let interval: TimeInterval
    let stop: SyncStopSignal

    /// What the loop carries from one sync to the next.
    private struct Progress {
        var exported: Int64
        var lastLocalChange = Invocation.current.now
        var batchesSinceSnapshot: Int64
        var lastProblem: String?
    }

    func run() async throws {
        let latest = try session.vault.latestHistoryNumber()
        var progress = Progress(exported: latest, batchesSinceSnapshot: try session.localState().batchesSinceSnapshot ?? 0)
        let compaction = SyncIdleCompaction(idleTime: interval)
        var nextPull = Invocation.current.now
        while !stop.isStopped {
            guard SyncState.isEnabled(in: session.location) else {
                Output.note("sync was turned off; stopped watching")
                return
            }
            let latest = try session.vault.latestHistoryNumber()
            if latest != progress.exported { progress.lastLocalChange = Invocation.current.now }
            if latest != progress.exported || Invocation.current.now >= nextPull {
                let compact = compaction.shouldCompact(batchesSinceSnapshot: progress.batchesSinceSnapshot,
                                                       lastLocalChange: progress.lastLocalChange, now: Invocation.current.now)
                progress.exported = try await syncOnce(since: latest, compact: compact, &progress)
                nextPull = Invocation.current.now + interval
            }
            try? await Task.sleep(for: Self.pollInterval)
        }
    }

    /// Syncs (or compacts) once and returns the history number that is now
    /// exported: the newest one, unless a local change was committed while the sync ran.
    private func syncOnce(since latest: Int64, compact: Bool, _ progress: inout Progress) async throws -> Int64 {
        let runLock = try SyncLockFile.run(in: session.location)
        runLock.lock()
        defer { runLock.unlock() }
        do {
            let report = try await session.withEngine { engine in
                if compact { return try await engine.compact() }
                return try await engine.sync()
            }
            progress.lastProblem = nil
            progress.batchesSinceSnapshot = report.batchesSinceSnapshot
            if report.importedChanges + report.exportedChanges > 0 || !report.issues.isEmpty || !report.preferenceChanges.isEmpty
                || report.snapshotWritten {
                let lines = SyncReportOutput.lines(report) + (report.snapshotWritten ? [SyncReportOutput.compactionLine(report)] : [])
                Output.print("\(Timestamp.text(Invocation.current.now)) " + lines.joined(separator: "\n  "))
                // Piped into a log, standard output is block-buffered; each sync's line goes out now.
                Output.flushStandardOutput()
            }
        } catch let error as SyncError where error.category == .vaultMismatch {
            throw error
        } catch SyncCommandError.syncOff {
            return latest
        } catch {
            let problem = SyncCommandError.describe(error)
            if problem != progress.lastProblem { Output.warning(problem) }
            progress.lastProblem = problem
        }
        let since = try session.vault.history(after: latest)
        return since.contains { $0.author != .sync } ? latest : since.last?.number ?? latest
    }
}
