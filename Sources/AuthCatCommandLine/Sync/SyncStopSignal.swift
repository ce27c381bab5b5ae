import Dispatch
import Foundation

/// SIGINT and SIGTERM turned into a flag that `sync watch` checks between
/// syncs, so it stops cleanly instead of dying mid-sync. A second signal
/// stops the process at once.
///
/// Caught only while the watch runs: the command line also runs in process
/// (in tests), where the process's signals must be as they were afterwards.
final class SyncStopSignal: @unchecked Sendable {
    private static let numbers = [SIGINT, SIGTERM]

    private let lock = NSLock()
    private var stopped = false
    private var sources: [DispatchSourceSignal] = []
    /// What each signal did before, to be restored.
    private var previous: [Int32: sigaction] = [:]

    /// Runs `body` with SIGINT and SIGTERM caught, then restores what they did before.
    static func catching<Result>(_ body: (SyncStopSignal) async throws -> Result) async rethrows -> Result {
        let flag = SyncStopSignal()
        flag.install()
        defer { flag.uninstall() }
        return try await body(flag)
    }

    var isStopped: Bool { lock.withLock { stopped } }

    private func install() {
        for number in Self.numbers {
            var ignore = sigaction()
            ignore.__sigaction_handler.sa_handler = SIG_IGN
            var old = sigaction()
            // Ignored by the default handler so that only the dispatch source sees it.
            guard sigaction(number, &ignore, &old) == 0 else { continue }
            previous[number] = old
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in receive(number) }
            source.resume()
            sources.append(source)
        }
    }

    private func uninstall() {
        sources.forEach { $0.cancel() }
        sources = []
        // Restored last, so that what the sources did on the way out does not stay.
        for (number, old) in previous {
            var action = old
            sigaction(number, &action, nil)
        }
        previous = [:]
    }

    private func receive(_ number: Int32) {
        let again = lock.withLock {
            defer { stopped = true }
            return stopped
        }
        if again { exit(128 + number) }
    }
}
