/// Receives the sync engine's events.
///
/// Recording must never fail or slow sync down: an implementation that cannot
/// store an event drops it. `SyncEventLog` keeps them in the vault folder.
public protocol SyncEventRecorder: Sendable {
    func record(_ event: SyncEvent)
}
