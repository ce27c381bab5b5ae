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
