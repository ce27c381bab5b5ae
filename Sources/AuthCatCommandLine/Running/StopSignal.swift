import Dispatch
import Foundation
import Synchronization

/// SIGINT and SIGTERM turned into a flag that `sync watch` and `follow now
/// --watch` check between runs, so they stop cleanly instead of dying in the
/// middle of one. A second signal stops the process at once.
///
/// Caught only while the watch runs: the command line also runs in process
/// (in tests), where the process's signals must be as they were afterwards.
final class StopSignal: Sendable {
    private static let numbers = [SIGINT, SIGTERM]

    private let stopped = Mutex(false)

    /// Runs `body` with SIGINT and SIGTERM caught, then restores what they did before.
    static func catching<Result>(_ body: (StopSignal) async throws -> Result) async rethrows -> Result {
        let flag = StopSignal()
        let caught = CaughtSignals(numbers, handledBy: flag)
        defer { caught.restore() }
        return try await body(flag)
    }

    var isStopped: Bool { stopped.withLock { $0 } }

    private func receive(_ number: Int32) {
        // Ctrl-C while the watch asks something (a password) is the prompt's.
        if number == SIGINT { PromptInterrupt.cancelOpenPrompt() }
        let again = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        if again { exit(128 + number) }
    }

    /// The dispatch sources that catch the signals, and what each signal did
    /// before them. Only the `catching` call that made it holds it, so it
    /// needs no lock of its own.
    private struct CaughtSignals {
        private var sources: [any DispatchSourceSignal] = []
        private var previous: [Int32: sigaction] = [:]

        init(_ numbers: [Int32], handledBy flag: StopSignal) {
            for number in numbers {
                var ignore = sigaction()
                ignore.__sigaction_handler.sa_handler = SIG_IGN
                var old = sigaction()
                // Ignored by the default handler so that only the dispatch source sees it.
                guard sigaction(number, &ignore, &old) == 0 else { continue }
                previous[number] = old
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { flag.receive(number) }
                source.resume()
                sources.append(source)
            }
        }

        func restore() {
            sources.forEach { $0.cancel() }
            // Restored last, so that what the sources did on the way out does not stay.
            for (number, old) in previous {
                var action = old
                sigaction(number, &action, nil)
            }
        }
    }
}
