import AuthCatSync
import Foundation

/// A one-line progress display on standard error for syncs that take a while.
///
/// It shows nothing unless standard error is a terminal and the sync has run
/// for half a second, so quick syncs and scripts see no progress at all.
final class SyncProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private let started = Date()
    private var lastDrawn: Date?
    private var drawn = false
    private let standardError: StandardStream

    private init(standardError: StandardStream) {
        self.standardError = standardError
    }

    /// A display, or nil when standard error is not a terminal.
    static func forTerminal() -> SyncProgressLine? {
        let standardError = Invocation.current.standardError
        return standardError.isTerminal ? SyncProgressLine(standardError: standardError) : nil
    }

    func update(_ progress: SyncProgress) {
        let now = Date()
        let line: String? = lock.withLock {
            guard now.timeIntervalSince(started) >= 0.5 else { return nil }
            if let lastDrawn, now.timeIntervalSince(lastDrawn) < 0.1 { return nil }
            lastDrawn = now
            drawn = true
            let count = progress.total.map { "\(progress.completed)/\($0)" } ?? "\(progress.completed)"
            return "\r\u{1B}[K\(progress.step.rawValue) \(count)"
        }
        if let line { draw(line) }
    }

    /// Clears the line, if one was drawn.
    func finish() {
        let wasDrawn = lock.withLock { drawn }
        if wasDrawn { draw("\r\u{1B}[K") }
    }

    private func draw(_ text: String) {
        standardError.write(text)
        standardError.flush()
    }
}
