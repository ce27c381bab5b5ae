import Synchronization

/// A one-time signal from one task to those waiting for it, so that a test
/// waits for the event it expects, never for a fixed time.
final class Signal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream()
    }

    func fire() {
        continuation.yield()
        continuation.finish()
    }

    /// Returns once `fire()` was called, at once if it was already.
    func wait() async {
        for await _ in stream { return }
    }
}

/// What happened, in the order it happened, written from any task.
final class EventLog: Sendable {
    private let entries = Mutex<[String]>([])

    func append(_ entry: String) {
        entries.withLock { $0.append(entry) }
    }

    var all: [String] { entries.withLock { $0 } }
}
