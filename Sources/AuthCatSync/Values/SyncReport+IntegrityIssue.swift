extension SyncReport {
    /// Something on the remote that failed a check: a rejected object, or a
    /// device whose chain of batches went backwards or has a gap.
    ///
    /// Sync goes on with everything else. A rejected or replayed object is
    /// reported by the sync that first reads it; later syncs skip it while it
    /// stays the same, and `SyncLocalState.rejectedObjects` keeps listing it.
    /// Rollbacks, gaps and blocked devices are reported by every sync that finds
    /// them, and `SyncLocalState.standingIssues` lists those of the latest one.
    public struct IntegrityIssue: Sendable, Equatable {
        public enum Kind: String, Codable, Sendable, Equatable {
            /// The object failed authentication, or its contents are malformed or truncated.
            case rejected
            /// A batch does not follow the one before it (a replayed or forked object).
            case replayed
            /// A device's newest object is older than one already seen (rollback).
            case rollback
            /// A device's batches skip a number that no snapshot covers.
            case gap
            /// A device's later batches wait behind one of its objects that was rejected.
            case blocked
        }

        public var kind: Kind
        /// The remote object name, or the device id for rollback and gap.
        public var subject: String
        public var detail: String

        public init(kind: Kind, subject: String, detail: String) {
            self.kind = kind
            self.subject = subject
            self.detail = detail
        }

        public var description: String { "\(kind.rawValue): \(subject): \(detail)" }
    }
}
