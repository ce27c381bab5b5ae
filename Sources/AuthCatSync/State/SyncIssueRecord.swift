import Foundation
import GRDB

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
