import Dispatch
import Foundation

/// SIGINT and SIGTERM turned into a flag that `sync watch` checks between
/// syncs, so it stops cleanly instead of dying mid-sync. A second signal
/// stops the process at once.
final class SyncStopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var sources: [DispatchSourceSignal] = []

    /// Catches SIGINT and SIGTERM from now on.
    static func install() -> SyncStopSignal {
        let flag = SyncStopSignal()
        for number in [SIGINT, SIGTERM] {
            // Ignored by the default handler so that only the dispatch source sees it.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { flag.receive(number) }
            source.resume()
            flag.sources.append(source)
        }
        return flag
    }

    var isStopped: Bool { lock.withLock { stopped } }

    private func receive(_ number: Int32) {
        let again = lock.withLock {
            defer { stopped = true }
            return stopped
        }
        if again { exit(128 + number) }
    }
}
