import Foundation
import GRDB

/// A row of `sync.sqlite`'s `rejected` table: a remote object that failed a
/// check, remembered so that it is not downloaded and reported on every sync.
///
/// Keyed by name and listed size: an object that changes size under the same
/// name is read again. A row goes when its object leaves the remote.
struct SyncRejectedRecord: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "rejected"

    var name: String
    var size: Int
    var kind: String
    var detail: String
    /// When it was first rejected, in Unix milliseconds.
    var firstSeen: Int64

    var rejectedObject: SyncRejectedObject {
        SyncRejectedObject(name: name, kind: SyncIntegrityIssue.Kind(rawValue: kind) ?? .rejected, detail: detail,
                           firstSeen: Date(unixMilliseconds: firstSeen))
    }
}
