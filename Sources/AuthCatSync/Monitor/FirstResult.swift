import Synchronization

/// Resumes a continuation with whichever of several racing results comes first.
final class FirstResult<Value: Sendable>: Sendable {
    /// Nil once a result was handed over.
    private let continuation: Mutex<CheckedContinuation<Value, Never>?>

    init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = Mutex(continuation)
    }

    /// Offers a result; every one after the first is ignored.
    func offer(_ value: Value) {
        let waiting = continuation.withLock { $0.take() }
        waiting?.resume(returning: value)
    }
}
