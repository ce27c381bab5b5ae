import AuthCatCore
import Foundation
import GRDB

extension SyncEngine {
    /// The objects rejected by earlier syncs, by name.
    func knownRejections() throws -> [String: SyncRejectedRecord] {
        let records = try store.read { try SyncRejectedRecord.fetchAll($0) }
        return Dictionary(records.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Remembers the objects this sync rejected, and forgets those that left
    /// the remote or changed. Writes nothing when nothing changed, so a sync
    /// with nothing new stays free of local writes.
    func rememberRejections(_ run: SyncRun) throws {
        let now = clock.now().unixMilliseconds
        var kept = run.rejectedBefore.filter { run.isKnownRejected($0.key) }
        for issue in run.report.issues where issue.kind == .rejected || issue.kind == .replayed {
            // Only listed objects: "the manifest is missing" is about no object at all.
            guard let size = run.listing.sizes[issue.subject], kept[issue.subject] == nil else { continue }
            kept[issue.subject] = SyncRejectedRecord(name: issue.subject, size: size, kind: issue.kind.rawValue,
                                                     detail: issue.detail, firstSeen: now)
        }
        guard kept != run.rejectedBefore else { return }
        try store.write { db in
            try SyncRejectedRecord.deleteAll(db)
            for record in kept.values { try record.insert(db) }
        }
    }
}
