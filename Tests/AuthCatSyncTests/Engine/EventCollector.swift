import Foundation

@testable import AuthCatSync

/// Collects the engine's events for assertions.
final class EventCollector: SyncEventRecorder, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [SyncEvent] = []

    func record(_ event: SyncEvent) {
        lock.withLock { stored.append(event) }
    }

    var events: [SyncEvent] { lock.withLock { stored } }
}
