import AuthCatCore
import AuthCatSync
import Foundation

/// The loop behind `sync watch`: cheap checks every 250 ms, a sync when the
/// vault changed or the interval passed.
///
/// The checks are the newest history number (one indexed SQLite read) and
/// whether sync is still on (a file check, then one row); neither touches
/// the remote.
struct SyncWatchLoop {
    static let pollInterval: Duration = .milliseconds(250)

    let session: SyncSession
    let interval: TimeInterval
    let stop: SyncStopSignal

    func run() async throws {
        var exported = try session.vault.latestHistoryNumber()
        var nextPull = Date()
        var lastProblem: String?
        while !stop.isStopped {
            guard SyncState.isEnabled(in: session.location) else {
                Output.standardError("authcat: sync was turned off; stopped watching")
                return
            }
            let latest = try session.vault.latestHistoryNumber()
            if latest != exported || Date() >= nextPull {
                exported = try await syncOnce(since: latest, lastProblem: &lastProblem)
                nextPull = Date() + interval
            }
            try? await Task.sleep(for: Self.pollInterval)
        }
    }

    /// Syncs once and returns the history number that is now exported: the
    /// newest one, unless a local change was committed while the sync ran.
    private func syncOnce(since latest: Int64, lastProblem: inout String?) async throws -> Int64 {
        let runLock = try SyncLockFile.run(in: session.location)
        runLock.lock()
        defer { runLock.unlock() }
        do {
            let report = try await session.withEngine { try await $0.sync() }
            lastProblem = nil
            if report.importedChanges + report.exportedChanges > 0 || !report.issues.isEmpty || !report.preferenceChanges.isEmpty {
                let lines = SyncReportOutput.lines(report)
                print("\(Timestamp.text(Date())) " + lines.joined(separator: "\n  "))
                // Piped into a log, standard output is block-buffered; each sync's line goes out now.
                fflush(stdout)
            }
        } catch let error as SyncError where error.category == .vaultMismatch {
            throw error
        } catch SyncCommandError.syncOff {
            return latest
        } catch {
            let problem = SyncCommandError.describe(error)
            if problem != lastProblem { Output.warning(problem) }
            lastProblem = problem
        }
        let since = try session.vault.history(after: latest)
        return since.contains { $0.author != .sync } ? latest : since.last?.number ?? latest
    }
}
