import Foundation

/// A remote object this device rejected (it failed authentication, was
/// malformed, truncated or replayed) and no longer reads while it stays the
/// same; `authcat sync status` lists it.
public struct SyncRejectedObject: Codable, Equatable, Sendable {
    /// The remote object name (no account data: names are random ids and numbers).
    public var name: String
    public var kind: SyncIntegrityIssue.Kind
    /// Why it was rejected.
    public var detail: String
    /// When this device first rejected it.
    public var firstSeen: Date

    public init(name: String, kind: SyncIntegrityIssue.Kind, detail: String, firstSeen: Date) {
        self.name = name
        self.kind = kind
        self.detail = detail
        self.firstSeen = firstSeen
    }
}
