import AuthCatSync
import Foundation
import Synchronization

/// A one-line progress display on standard error for syncs that take a while.
///
/// It shows nothing unless standard error is a terminal and the sync has run
/// for half a second, so quick syncs and scripts see no progress at all.
final class SyncProgressLine: Sendable {
    private struct Drawing {
        /// The first update: when the sync started, after any wait for its turn.
        var started: Date?
        var lastDrawn: Date?
        var drawn = false
    }

    private let drawing = Mutex(Drawing())
    private let standardError: StandardStream

    private init(standardError: StandardStream) {
        self.standardError = standardError
    }

    /// A display, or nil when standard error is not a terminal.
    static func forTerminal(_ standardError: StandardStream) -> SyncProgressLine? {
        standardError.isTerminal ? SyncProgressLine(standardError: standardError) : nil
    }

    /// Runs `body` with a display to update, when `standardError` is a
    /// terminal, and clears it afterwards.
    static func showing<Result>(
        on standardError: StandardStream, _ body: (((SyncProgress) -> Void)?) async throws -> Result
    ) async throws -> Result {
        let line = forTerminal(standardError)
        defer { line?.finish() }
        return try await body(line.map { line in { line.update($0) } })
    }

    func update(_ progress: SyncProgress) {
        let now = Date()
        let line: String? = drawing.withLock { drawing in
            let started = drawing.started ?? now
            drawing.started = started
            guard now.timeIntervalSince(started) >= 0.5 else { return nil }
            if let lastDrawn = drawing.lastDrawn, now.timeIntervalSince(lastDrawn) < 0.1 { return nil }
            drawing.lastDrawn = now
            drawing.drawn = true
            let count = progress.total.map { "\(progress.completed)/\($0)" } ?? "\(progress.completed)"
            return "\r\u{1B}[K\(progress.step.rawValue) \(count)"
        }
        if let line { draw(line) }
    }

    /// Clears the line, if one was drawn.
    func finish() {
        let wasDrawn = drawing.withLock { $0.drawn }
        if wasDrawn { draw("\r\u{1B}[K") }
    }

    private func draw(_ text: String) {
        standardError.write(text)
        standardError.flush()
    }
}
