import Foundation

/// One moment in the life of a sync phase: its start, or its end with success or failure.
///
/// The engine records an event when setup, import (pull) and export (push)
/// start and end; `SyncStatus` folds them into what `authcat sync status` shows.
/// Events outlive the process (see `SyncEventLog`), so they hold no secret.
public struct SyncEvent: Codable, Equatable, Sendable {
    /// The three phases the monitor tracks.
    public enum Phase: String, Codable, CaseIterable, Sendable {
        /// Turning sync on: creating or joining a remote vault.
        case setup
        /// Pulling other devices' changes into the local vault.
        case `import`
        /// Pushing local changes to the remote.
        case export
    }

    /// What happened to the phase.
    public enum Kind: String, Codable, CaseIterable, Sendable {
        case started, succeeded, failed
    }

    public var phase: Phase
    public var kind: Kind
    public var time: Date
    /// Why the phase failed; set only when `kind` is `.failed`.
    public var failure: SyncFailure?
    /// The process that recorded the event, so a start whose process died is
    /// not shown as "in progress" forever. Filled in by the recorder when nil.
    public var processID: Int32?

    public init(phase: Phase, kind: Kind, time: Date, failure: SyncFailure? = nil, processID: Int32? = nil) {
        self.phase = phase
        self.kind = kind
        self.time = time
        self.failure = failure
        self.processID = processID
    }
}
