import Foundation

/// A problem with another device's chain of batches that the latest sync
/// found and that lasts until the remote is repaired: a rollback, a gap, or
/// batches waiting behind a rejected object. `authcat sync status` shows it.
public struct SyncStandingIssue: Codable, Equatable, Sendable {
    public var kind: SyncIntegrityIssue.Kind
    /// The device id on the remote.
    public var subject: String
    public var detail: String
    /// When a sync first found it.
    public var firstSeen: Date

    public init(kind: SyncIntegrityIssue.Kind, subject: String, detail: String, firstSeen: Date) {
        self.kind = kind
        self.subject = subject
        self.detail = detail
        self.firstSeen = firstSeen
    }
}
