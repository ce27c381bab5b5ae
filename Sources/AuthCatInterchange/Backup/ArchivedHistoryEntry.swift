import AuthCatCore
import AuthCatEssentials
import Foundation

/// One history transaction in a backup made with `--with-history`. It
/// names changed fields, never values, like the vault's own history.
public struct ArchivedHistoryEntry: Codable, Equatable, Sendable {
    public struct Change: Codable, Equatable, Sendable {
        /// account, preference, sync_key or device.
        public var entity: String
        /// An account id, a preference key, a key epoch or a device's sync id.
        public var recordID: String
        /// insert, update, delete, rotate or revoke.
        public var kind: String
        public var fields: [String]
        /// A revoked device's name; absent for the other entities.
        public var label: String?
    }

    public var number: Int64
    public var timestamp: Int64
    /// cli, import, restore, sync or follow.
    public var author: String
    /// The followed file's name, for `follow`.
    public var source: String?
    public var deviceID: String
    public var deviceName: String
    public var changes: [Change]

    public init(_ entry: HistoryEntry) {
        number = entry.number
        timestamp = entry.timestamp.unixMilliseconds
        author = entry.author.rawValue
        source = entry.source
        deviceID = entry.device.id
        deviceName = entry.device.name
        changes = entry.changes.map {
            Change(
                entity: $0.entity.rawValue, recordID: $0.recordID, kind: $0.kind.rawValue, fields: $0.fields,
                label: $0.label)
        }
    }
}
