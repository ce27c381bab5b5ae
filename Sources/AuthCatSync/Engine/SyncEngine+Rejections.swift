import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncEngine {
    /// The objects rejected by earlier syncs, by name.
    func knownRejections() throws -> [String: SyncStore.RejectedRecord] {
        try SyncStore.RejectedRecord.byName(in: store)
    }

    /// Remembers the objects this sync rejected, and forgets those that left
    /// the remote or changed. Writes nothing when nothing changed, so a sync
    /// with nothing new stays free of local writes.
    func rememberRejections(_ run: SyncEngine.Run) throws {
        let now = clock.now().unixMilliseconds
        var kept = run.rejectedBefore.filter { run.stillRejected($0.value) }
        for issue in run.report.issues where issue.kind == .rejected || issue.kind == .replayed {
            // Only listed objects: "the manifest is missing" is about no object at all.
            guard let size = run.listing.sizes[issue.subject], kept[issue.subject] == nil,
                !run.rereadEachSync.contains(issue.subject),
                let version = run.readVersions[issue.subject] ?? run.listing.versions[issue.subject]
            else { continue }
            // The listed size is the remote's word: a negative one must not fail the state's CHECK.
            kept[issue.subject] = SyncStore.RejectedRecord(
                name: issue.subject, size: max(0, size), kind: issue.kind.rawValue,
                detail: issue.detail, firstSeen: now, version: version)
        }
        guard kept != run.rejectedBefore else { return }
        try store.transaction { try $0.replaceRejections(with: kept.values) }
    }

    /// Replaces the standing issues with those this sync found (every issue
    /// but a remembered rejected object), keeping when each was first found.
    /// Writes nothing when nothing changed.
    func rememberIssues(_ run: SyncEngine.Run) throws {
        let now = clock.now().unixMilliseconds
        let before = try store.reading { try $0.issues() }
        let firstSeen = Dictionary(before.map { ("\($0.kind)/\($0.subject)", $0.firstSeen) }, uniquingKeysWith: min)
        var found: [String: SyncStore.IssueRecord] = [:]
        for issue in run.report.issues {
            let isRememberedObject =
                (issue.kind == .rejected || issue.kind == .replayed) && run.listing.sizes[issue.subject] != nil
                && !run.rereadEachSync.contains(issue.subject)
            let key = "\(issue.kind.rawValue)/\(issue.subject)"
            guard !isRememberedObject, found[key] == nil else { continue }
            found[key] = SyncStore.IssueRecord(
                kind: issue.kind.rawValue, subject: issue.subject, detail: issue.detail,
                firstSeen: firstSeen[key] ?? now)
        }
        let after = found.values.sorted { ($0.kind, $0.subject) < ($1.kind, $1.subject) }
        guard after != before.sorted(by: { ($0.kind, $0.subject) < ($1.kind, $1.subject) }) else { return }
        try store.transaction { try $0.replaceIssues(with: after) }
    }
}
