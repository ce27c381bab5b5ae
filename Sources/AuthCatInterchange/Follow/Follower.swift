import AuthCatCore
import AuthCatEssentials
import Foundation

/// Applies a followed file's content to the vault, in one write under the
/// author `follow:NAME`: the file is the authority for the accounts it
/// brought. An entry new in the file is added, one changed there is changed
/// here, one gone from it is removed here (and can be restored). Accounts
/// that did not come from the file are never touched.
///
/// An entry is recognised by its id in the file when the format gives one,
/// else by its secret, else by its name as last applied (a secret changed
/// in place). A field is changed here only when the file changed it: an edit
/// made here to a field the file left alone stays, and one to a field the
/// file changed too is replaced, and said (history keeps both).
public struct Follower {
    public let vault: Vault
    public let file: FollowedFile

    public init(vault: Vault, file: FollowedFile) {
        self.vault = vault
        self.file = file
    }

    /// Starts following the file at `path` as `name`: remembers it (with
    /// `password`, sealed) and applies `parsed`, its content with SHA-256
    /// `digest`, in the same write.
    public static func start(
        _ parsed: ParsedImport, digest: Data, name: String, path: String, password: SecretBytes?, in vault: Vault
    ) throws -> (FollowedFile, FollowReport) {
        try vault.write(author: .follow(name)) { writer in
            let file = try writer.addFollowedFile(
                name: name, path: path, format: parsed.format.rawValue, password: password)
            return (file, try apply(parsed, digest: digest, to: file, in: writer))
        }
    }

    /// Applies `parsed`, the file's content with SHA-256 `digest`, in one write.
    /// - Parameter password: kept for the file from now on, when given.
    public func apply(_ parsed: ParsedImport, digest: Data, password: SecretBytes? = nil) throws -> FollowReport {
        try vault.write(author: .follow(file.name)) { writer in
            if let password { try writer.setFollowPassword(password, of: file) }
            return try Self.apply(parsed, digest: digest, to: file, in: writer)
        }
    }

    private static func apply(
        _ parsed: ParsedImport, digest: Data, to file: FollowedFile, in writer: VaultWriter
    ) throws -> FollowReport {
        var report = FollowReport(name: file.name, status: .applied)
        report.warnings = parsed.warnings
        report.rejections = parsed.rejections
        var run = try FollowRun(writer: writer, file: file, parsed: parsed)
        try run.apply(into: &report)
        report.rejections.sort { $0.position < $1.position }
        try writer.recordFollowApplied(file, digest: digest)
        return report
    }
}

/// One application of a file's entries, inside the write: entries paired
/// with what the file brought before, then removals, changes and additions,
/// each account's change applied on its own or refused with a reason.
private struct FollowRun {
    let writer: VaultWriter
    let file: FollowedFile
    let parsed: ParsedImport
    var links: [FollowedEntry]
    var accounts: [UUID: Account]
    /// The accounts any followed file brought when the run began.
    let followed: Set<UUID>

    init(writer: VaultWriter, file: FollowedFile, parsed: ParsedImport) throws {
        self.writer = writer
        self.file = file
        self.parsed = parsed
        links = try writer.followedEntries(of: file)
        followed = try writer.followedAccountIDs()
        accounts = Dictionary(
            try writer.accounts(includingDeleted: true).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func apply(into report: inout FollowReport) throws {
        let entries = try distinctEntries(into: &report)
        let (pairs, newEntries) = try pair(entries)
        try removeUnpaired(pairs: pairs, into: &report)
        for (link, entry) in pairs { try update(link, to: entry, into: &report) }
        for entry in newEntries { try addOrAdopt(entry, into: &report) }
    }

    /// The file's entries, each name once: a second entry with a name seen
    /// before is left out, as an import leaves it out.
    private func distinctEntries(into report: inout FollowReport) throws -> [ImportEntry] {
        var seen: [String: ImportEntry] = [:]
        var result: [ImportEntry] = []
        for entry in parsed.entries {
            if let earlier = seen[entry.identityKey] {
                let reason = "\(earlier.position) has the same name; only the first is followed"
                report.rejections.append(
                    ImportRejection(position: entry.position, label: entry.label, reason: .conflict(reason)))
                continue
            }
            seen[entry.identityKey] = entry
            result.append(entry)
        }
        return result
    }

    /// Each entry paired with the link it continues: by id, then by the
    /// secret last applied, then by the name last applied. The rest are new.
    private func pair(_ entries: [ImportEntry]) throws -> ([(FollowedEntry, ImportEntry)], [ImportEntry]) {
        var open = links
        var pairs: [(FollowedEntry, ImportEntry)] = []
        var rest = entries
        let rules: [(FollowedEntry, ImportEntry) -> Bool] = [
            { link, entry in link.sourceID != nil && link.sourceID == entry.sourceID },
            { link, entry in
                (link.sourceID == nil || entry.sourceID == nil)
                    && link.snapshot.secret == entry.draft.secret.unprotectedData()
            },
            { link, entry in
                (link.sourceID == nil || entry.sourceID == nil)
                    && Account.identityKey(issuer: link.snapshot.issuer, name: link.snapshot.name) == entry.identityKey
            },
        ]
        for rule in rules {
            rest = rest.filter { entry in
                guard let index = open.firstIndex(where: { rule($0, entry) }) else { return true }
                pairs.append((open.remove(at: index), entry))
                return false
            }
        }
        return (pairs, rest)
    }

    /// Accounts the file brought whose entries are gone: removed here. When
    /// the file had entries it could not read, nothing is removed: a gone
    /// entry cannot be told from one that is there but unreadable.
    private mutating func removeUnpaired(pairs: [(FollowedEntry, ImportEntry)], into report: inout FollowReport) throws
    {
        let paired = Set(pairs.map(\.0.accountID))
        let gone = links.filter { !paired.contains($0.accountID) }
        guard !gone.isEmpty else { return }
        guard parsed.rejections.isEmpty else {
            report.warnings.append(
                "\(gone.count.counted("followed account")) no longer in the file kept: "
                    + "the file has entries that could not be read")
            return
        }
        for link in gone {
            if let account = accounts[link.accountID], account.deletedAt == nil {
                try writer.delete(account.id)
                report.removed.append(account.label)
            }
            try writer.removeFollowedEntry(link.accountID, of: file)
        }
    }

    /// Follows a changed entry: each field the file changed since it was
    /// last applied takes the file's value.
    private mutating func update(_ link: FollowedEntry, to entry: ImportEntry, into report: inout FollowReport) throws {
        guard let account = accounts[link.accountID] else {
            // The account is gone altogether (purged): the entry is new again.
            try writer.removeFollowedEntry(link.accountID, of: file)
            return try addOrAdopt(entry, into: &report)
        }
        guard account.deletedAt == nil else {
            report.keptRemoved.append(account.label)
            return
        }
        let merge = try FieldMerge(
            before: link.snapshot, file: entry.draft, here: account, secret: writer.secret(for: account.id),
            pin: writer.pin(for: account.id))
        let refusal = try writer.ifAccepted {
            if let edit = merge.edit { _ = try writer.update(account.id, edit) }
            try writer.setFollowedEntry(
                FollowedEntry(accountID: account.id, sourceID: entry.sourceID, snapshot: FollowSnapshot(entry.draft)),
                of: file)
        }
        if let refusal { return report.rejections.append(Self.rejection(entry, refusal)) }
        guard !merge.fields.isEmpty else { return }
        report.updated.append(
            FollowReport.Update(
                label: entry.label, fields: merge.fields.map(\.rawValue),
                replacedLocalEdits: merge.replacedHere.map(\.rawValue)))
    }

    /// An entry the file did not bring before: an account here with the
    /// same name and secret that no file follows is adopted; else it is added.
    private mutating func addOrAdopt(_ entry: ImportEntry, into report: inout FollowReport) throws {
        let sameName = accounts.values.first { $0.deletedAt == nil && $0.identityKey == entry.identityKey }
        if let account = sameName {
            guard !followed.contains(account.id), try writer.secret(for: account.id) == entry.draft.secret else {
                let why =
                    followed.contains(account.id)
                    ? "another followed file brought \(TerminalText.sanitized(account.label))"
                    : "the vault already has \(TerminalText.sanitized(account.label)) with a different secret; "
                        + "rename it to follow this entry"
                return report.rejections.append(
                    ImportRejection(position: entry.position, label: entry.label, reason: .conflict(why)))
            }
            try writer.setFollowedEntry(
                FollowedEntry(accountID: account.id, sourceID: entry.sourceID, snapshot: FollowSnapshot(entry.draft)),
                of: file)
            return report.adopted.append(account.label)
        }
        var added: Account?
        let refusal = try writer.ifAccepted {
            let account = try writer.insert(entry.draft, createdAt: entry.createdAt)
            try writer.setFollowedEntry(
                FollowedEntry(accountID: account.id, sourceID: entry.sourceID, snapshot: FollowSnapshot(entry.draft)),
                of: file)
            added = account
        }
        if let refusal { return report.rejections.append(Self.rejection(entry, refusal)) }
        if let added {
            accounts[added.id] = added
            report.added.append(added.label)
        }
    }

    private static func rejection(_ entry: ImportEntry, _ error: UserFacingError) -> ImportRejection {
        ImportRejection(position: entry.position, label: entry.label, reason: .conflict(error.description))
    }
}
