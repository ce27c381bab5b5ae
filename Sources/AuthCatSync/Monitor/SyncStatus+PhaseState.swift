import Foundation

extension SyncStatus {
    /// Where one sync phase (setup, import or export) stands, folded from its events.
    public struct PhaseState: Codable, Equatable, Sendable {
        public enum State: String, Codable, CaseIterable, Sendable {
            /// No run of this phase was recorded (since sync was last set up).
            case notStarted = "not started"
            /// A run started and its process is still alive.
            case inProgress = "in progress"
            case succeeded
            case failed
            /// A run started but its process died, or it has run far too long, without recording an end.
            case interrupted
        }

        public var state: State
        /// When the latest run started.
        public var started: Date?
        /// When the latest run ended; nil while in progress or when interrupted.
        public var ended: Date?
        /// Why the latest run failed or was interrupted.
        public var failure: SyncFailure?

        public init(state: State, started: Date? = nil, ended: Date? = nil, failure: SyncFailure? = nil) {
            self.state = state
            self.started = started
            self.ended = ended
            self.failure = failure
        }

        public static let notStarted = SyncStatus.PhaseState(state: .notStarted)

        /// When this phase last changed: its end, else its start.
        var latest: Date? { ended ?? started }
    }
}
