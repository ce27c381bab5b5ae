import Foundation

/// One committed vault transaction and what it changed.
public struct HistoryEntry: Codable, Equatable, Sendable {
    /// Increasing transaction number, unique in this vault.
    public var number: Int64
    public var timestamp: Date
    public var author: HistoryAuthor.Kind
    public var device: DeviceReference
    /// The followed file that made the change, when `author` is `.follow`.
    public var source: String?
    public var changes: [HistoryChange]
}

/// A history entry with the first few of its changes, and how many more it has.
public struct HistoryExcerpt: Equatable, Sendable {
    /// The entry, with only the changes shown.
    public var entry: HistoryEntry
    /// The entry's changes left out after those.
    public var omittedChanges: Int

    public init(entry: HistoryEntry, omittedChanges: Int) {
        self.entry = entry
        self.omittedChanges = omittedChanges
    }
}

/// One record inserted, updated or deleted in a transaction, or a change of
/// the sync key: a rotation and each device it revoked. It names the fields
/// that changed, never their values.
public struct HistoryChange: Codable, Equatable, Sendable {
    public enum Entity: String, Codable, Sendable {
        case account, preference
        /// The sync key: `recordID` is the key epoch a rotation moved to.
        case syncKey = "sync_key"
        /// A device of the remote vault: `recordID` is its sync id, `label` its name then.
        case device
    }

    public enum Kind: String, Codable, Sendable {
        case insert, update, delete
        /// The sync key was replaced (`syncKey`).
        case rotate
        /// A rotation revoked a device (`device`).
        case revoke
    }

    public var entity: Entity
    /// An account's id, a preference's key, a key epoch or a device id.
    public var recordID: String
    public var kind: Kind
    /// Field names, sorted: see `AccountField`.
    public var fields: [String]
    /// A device's name when the change was made (devices are renamed and
    /// forgotten); nil for the other entities, whose labels are read when shown.
    public var label: String?

    public init(entity: Entity, recordID: String, kind: Kind, fields: [String], label: String? = nil) {
        self.entity = entity
        self.recordID = recordID
        self.kind = kind
        self.fields = fields.sorted()
        self.label = label
    }
}

/// The names under which account fields appear in history and sync.
public enum AccountField: String, CaseIterable, Sendable {
    case issuer, name, kind, algorithm, digits, period, counter, secret, tags, note
}
