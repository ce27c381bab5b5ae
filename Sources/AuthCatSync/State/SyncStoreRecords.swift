import Foundation
import GRDB

/// A row of `sync.sqlite`'s `rejected` table: a remote object that failed a
/// check, remembered so that it is not downloaded and reported on every sync.
///
/// Keyed by name and version (`RemoteObject.version`, else the SHA-256 of
/// the bytes read): an object written again under the same name, even with
/// the same size, is read again. A row goes when its object leaves the remote.
struct SyncRejectedRecord: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "rejected"

    var name: String
    var size: Int
    var kind: String
    var detail: String
    /// When it was first rejected, in Unix milliseconds.
    var firstSeen: Int64
    /// The listed version, or `sha256:<hex>` of the bytes when the remote lists none.
    var version: String

    /// The rejections `store` remembers, by name.
    static func byName(in store: SyncStore) throws -> [String: SyncRejectedRecord] {
        let records = try store.read { try fetchAll($0) }
        return Dictionary(records.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    var rejectedObject: SyncRejectedObject {
        SyncRejectedObject(
            name: name, kind: SyncIntegrityIssue.Kind(rawValue: kind) ?? .rejected, detail: detail,
            firstSeen: Date(unixMilliseconds: firstSeen))
    }
}

/// A row of `sync.sqlite`'s `issue` table: a problem with a device's chain
/// (rollback, gap, or batches waiting behind a rejected object) that the
/// latest sync found. Each sync replaces the table with what it finds, so a
/// row stays exactly as long as the problem does.
struct SyncIssueRecord: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "issue"

    var kind: String
    /// The device id on the remote.
    var subject: String
    var detail: String
    /// When a sync first found it, in Unix milliseconds.
    var firstSeen: Int64

    var standingIssue: SyncStandingIssue {
        SyncStandingIssue(
            kind: SyncIntegrityIssue.Kind(rawValue: kind) ?? .gap, subject: subject, detail: detail,
            firstSeen: Date(unixMilliseconds: firstSeen))
    }
}

/// How far this device has read another device's chain of batches.
struct SyncPeerRecord: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "peer"

    /// The device's id on the remote.
    var deviceID: String
    /// The device's id in its own vault, as history names it.
    var vaultDeviceID: String
    var name: String
    /// The newest batch sequence number imported (directly or through a snapshot).
    var sequence: Int64
    /// The hash of that batch, to check the next one continues the chain.
    var chainHash: String
    /// The highest sequence number seen on the remote, imported or not.
    var seenSequence: Int64
    var lastSeen: Int64?
}
