import Foundation

extension SyncStatus {
    /// How the monitor decides that a started phase is still running.
    ///
    /// A start without an end is in progress only while the process that
    /// recorded it is alive and the start is younger than `staleAfter`: a crashed
    /// or killed process never leaves sync "in progress" forever, and a reused
    /// process id cannot keep it so for long either.
    public struct Policy: Sendable {
        /// A run older than this without an end counts as interrupted.
        public var staleAfter: TimeInterval
        /// Whether the process with this id is alive; injected so that tests need no real processes.
        public var isProcessAlive: @Sendable (Int32) -> Bool

        public init(
            staleAfter: TimeInterval = 30 * 60,
            isProcessAlive: @escaping @Sendable (Int32) -> Bool = { SyncStatus.ProcessLiveness.isAlive($0) }
        ) {
            self.staleAfter = staleAfter
            self.isProcessAlive = isProcessAlive
        }
    }
}

extension SyncStatus {
    /// Whether a process exists, by asking the kernel to deliver no signal to it.
    public enum ProcessLiveness {
        public static func isAlive(_ processID: Int32) -> Bool {
            guard processID > 0 else { return false }
            // EPERM means it exists but belongs to someone else: still alive.
            return kill(processID, 0) == 0 || errno == EPERM
        }
    }
}
