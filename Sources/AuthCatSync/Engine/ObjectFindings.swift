import AuthCatEssentials
import Foundation

/// What one sync found wrong on the remote, and what it needs to remember
/// each rejected object by, so that the next sync skips it while it stays
/// as it is and reads it again once it changes (DESIGN.md principle 9).
///
/// A value handed from stage to stage: the engine starts it with what
/// following a rotation found, `RemoteCheck` takes it `inout`, the
/// `SyncImporter` carries it on and gives it back to be remembered. The import
/// of an epoch being left starts one of its own, of which only the issues
/// are kept (that epoch's objects leave the remote with the rotation).
struct ObjectFindings {
    private let listing: RemoteListing
    /// Objects rejected by earlier syncs, by name.
    private let rejectedBefore: [String: SyncStore.RejectedRecord]
    private(set) var issues: [SyncReport.IntegrityIssue] = []
    /// The version of each object this sync read, by name, to remember a rejection by.
    private var readVersions: [String: String] = [:]
    /// Objects rejected before that this sync read and found changed.
    private var changedSinceRejected: Set<String> = []
    /// Objects rejected in this sync only because their clocks are ahead of
    /// this device's: not remembered as rejected, so the next sync reads them
    /// again (this device's clock may be the one that is wrong, and be set
    /// right later). They are reported as standing issues meanwhile.
    private var rereadEachSync: Set<String> = []

    /// Findings about `listing`, knowing the rejections earlier syncs remembered in `store`.
    init(listing: RemoteListing, store: SyncStore) throws {
        self.listing = listing
        rejectedBefore = try SyncStore.RejectedRecord.byName(in: store)
    }

    mutating func issue(_ kind: SyncReport.IntegrityIssue.Kind, _ subject: String, _ detail: String) {
        issues.append(SyncReport.IntegrityIssue(kind: kind, subject: subject, detail: detail))
    }

    /// Reports issues found elsewhere (in the epoch being left).
    mutating func report(_ more: [SyncReport.IntegrityIssue]) {
        issues += more
    }

    /// Takes back the issues reported since there were `count`, keeping
    /// what was learnt of the objects read: a step that changed nothing is
    /// tried again object by object, which reports what it finds itself.
    mutating func withdrawIssues(after count: Int) {
        issues.removeSubrange(count...)
    }

    /// Reports that `device`'s objects after `sequence - 1` wait behind the
    /// rejected `name`, unless it is the device's newest: never silently.
    mutating func blocked(_ device: String, at name: String, sequence: Int64, newest: Int64) {
        guard sequence < newest else { return }
        issue(
            .blocked, device,
            "its objects after number \(sequence - 1) (up to \(newest)) wait behind the rejected \(name); "
                + "they are read once it is repaired, or when that device writes a snapshot (compacts)")
    }

    /// Whether `name` was rejected before and is listed unchanged: it is
    /// skipped and not reported again. Decided from the listed version
    /// without a download; a remote that lists none gives no answer here
    /// (`isKnownRejected(_:recordingRead:)` decides once the bytes are read).
    func isKnownRejected(_ name: String) -> Bool {
        guard let known = rejectedBefore[name], listing.sizes[name] != nil else { return false }
        return listing.versions[name].map { $0 == known.version } ?? false
    }

    /// Records that `name` was read as `data` (what a rejection of it is
    /// remembered by, and whether it changed since one), and tells whether it
    /// is a rejection remembered before, unchanged.
    mutating func isKnownRejected(_ name: String, recordingRead data: Data) -> Bool {
        readVersions[name] = listing.versions[name] ?? Self.contentVersion(data)
        guard let known = rejectedBefore[name], listing.sizes[name] != nil else { return false }
        if let listed = listing.versions[name] { return listed == known.version }
        if Self.contentVersion(data) == known.version { return true }
        changedSinceRejected.insert(name)
        return false
    }

    /// Reports `name`, read as `data`, as rejected for `reason`, unless it
    /// is a rejection remembered before, unchanged.
    mutating func rejected(_ name: String, read data: Data, _ reason: String) {
        if !isKnownRejected(name, recordingRead: data) { issue(.rejected, name, reason) }
    }

    /// Reports an object the remote refused to read (larger than
    /// `RemoteObject.maximumSize`, or not a plain file) as rejected,
    /// remembered by what the listing says since its bytes were not read.
    mutating func refused(_ name: String, reason: String) {
        readVersions[name] = listing.versions[name] ?? "refused-\(listing.sizes[name] ?? 0)"
        issue(.rejected, name, "not read: \(reason)")
    }

    /// Reports a marker that does not count, as the marker check found it.
    mutating func record(_ unopened: MarkerCheck.Unopened) {
        switch unopened {
        case .rejected(let name, let data, let reason): rejected(name, read: data, reason)
        case .refused(let name, let reason): refused(name, reason: reason)
        }
    }

    /// Reports a rotation record that was not adopted, remembered like an object rejected.
    mutating func rejectedRotation(_ name: String, reason: String) {
        guard !isKnownRejected(name) else { return }
        readVersions[name] = listing.versions[name] ?? "rotation"
        issue(.rejected, name, "a rotation record that is not adopted: \(reason)")
    }

    /// Keeps `name`, rejected for a clock ahead of this device's, from being
    /// remembered as rejected: the next sync reads it again.
    mutating func rereadEachSync(_ name: String) {
        rereadEachSync.insert(name)
    }

    private static func contentVersion(_ data: Data) -> String {
        "sha256:" + ObjectHash.of(data)
    }
}

extension ObjectFindings {
    /// Remembers the objects this sync rejected, forgetting those that left
    /// the remote or changed, and replaces the standing issues with the
    /// others it found. Writes nothing when nothing changed, so a sync with
    /// nothing new stays free of local writes.
    func remember(in store: SyncStore, now: Int64) throws {
        let rejections = rejectionsToKeep(now: now)
        if rejections != rejectedBefore {
            try store.transaction { try $0.replaceRejections(with: rejections.values) }
        }
        let before = try store.reading { try $0.issues() }
        let after = standingIssues(keepingFirstSeen: before, now: now)
        if after != before.sorted(by: Self.issueOrder) {
            try store.transaction { try $0.replaceIssues(with: after) }
        }
    }

    private func rejectionsToKeep(now: Int64) -> [String: SyncStore.RejectedRecord] {
        var kept = rejectedBefore.filter { stillRejected($0.value) }
        for issue in issues where issue.kind == .rejected || issue.kind == .replayed {
            // Only listed objects: "the manifest is missing" is about no object at all.
            guard let size = listing.sizes[issue.subject], kept[issue.subject] == nil,
                !rereadEachSync.contains(issue.subject),
                let version = readVersions[issue.subject] ?? listing.versions[issue.subject]
            else { continue }
            // The listed size is the remote's word: a negative one must not fail the state's CHECK.
            kept[issue.subject] = SyncStore.RejectedRecord(
                name: issue.subject, size: max(0, size), kind: issue.kind.rawValue,
                detail: issue.detail, firstSeen: now, version: version)
        }
        return kept
    }

    /// Whether a rejection remembered before still holds after this sync.
    private func stillRejected(_ known: SyncStore.RejectedRecord) -> Bool {
        guard listing.sizes[known.name] != nil, !changedSinceRejected.contains(known.name) else { return false }
        return listing.versions[known.name].map { $0 == known.version } ?? true
    }

    /// Every issue but a remembered rejected object, keeping when each was first found.
    private func standingIssues(
        keepingFirstSeen before: [SyncStore.IssueRecord], now: Int64
    ) -> [SyncStore.IssueRecord] {
        let firstSeen = Dictionary(before.map { ("\($0.kind)/\($0.subject)", $0.firstSeen) }, uniquingKeysWith: min)
        var found: [String: SyncStore.IssueRecord] = [:]
        for issue in issues {
            let isRememberedObject =
                (issue.kind == .rejected || issue.kind == .replayed) && listing.sizes[issue.subject] != nil
                && !rereadEachSync.contains(issue.subject)
            let key = "\(issue.kind.rawValue)/\(issue.subject)"
            guard !isRememberedObject, found[key] == nil else { continue }
            found[key] = SyncStore.IssueRecord(
                kind: issue.kind.rawValue, subject: issue.subject, detail: issue.detail,
                firstSeen: firstSeen[key] ?? now)
        }
        return found.values.sorted(by: Self.issueOrder)
    }

    private static func issueOrder(_ a: SyncStore.IssueRecord, _ b: SyncStore.IssueRecord) -> Bool {
        (a.kind, a.subject) < (b.kind, b.subject)
    }
}
