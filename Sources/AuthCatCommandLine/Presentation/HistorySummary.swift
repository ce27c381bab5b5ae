import AuthCatCore
import AuthCatEssentials
import Foundation

/// What `authcat history --json` shows of one transaction: who changed what,
/// and which fields, never their values.
public struct HistorySummary: Encodable, Equatable, Sendable {
    /// One changed record, with the label of the account it belongs to.
    public struct Change: Encodable, Equatable, Sendable {
        public var entity: HistoryChange.Entity
        public var recordID: String
        /// The account's `issuer:name` as stored now, or a revoked device's
        /// name as it was; nil for preferences and the sync key.
        @NullWhenAbsent public var label: String?
        public var kind: HistoryChange.Kind
        public var fields: [String]

        enum CodingKeys: String, CodingKey {
            case entity, label, kind, fields
            case recordID = "record_id"
        }
    }

    public var number: Int64
    public var timestamp: Date
    public var author: HistoryAuthor.Kind
    /// The followed file's name, for changes a followed file made.
    public var source: String?
    public var device: DeviceReference
    public var changes: [Change]

    /// The author as a line shows it: `follow:NAME` for a followed file.
    var authorLabel: String {
        source.map { "follow:\($0)" } ?? author.rawValue
    }

    /// - Parameter labels: account labels by lowercase id, deleted accounts included.
    public init(_ entry: HistoryEntry, labels: [String: String]) {
        number = entry.number
        timestamp = entry.timestamp
        author = entry.author
        source = entry.source
        device = entry.device
        changes = entry.changes.map { change in
            Change(
                entity: change.entity, recordID: change.recordID,
                label: change.entity == .account ? labels[change.recordID] : change.label,
                kind: change.kind, fields: change.fields)
        }
    }
}
