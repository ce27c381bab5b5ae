import AuthCatCore
import AuthCatEssentials
import Foundation

/// Brings parsed entries into a vault: first a plan (de-duplicated against
/// the vault and within the file), then the plan applied in one transaction,
/// all or nothing, under one history author.
///
/// An entry is skipped when an account with the same identity key (issuer
/// and name, ignoring case) and the same secret exists. The same identity
/// with a different secret is a conflict: the entry is rejected with a
/// reason, and the existing account is left alone — renaming one of them
/// and importing again keeps both.
public struct Importer {
    public let vault: Vault
    public let author: HistoryAuthor

    /// - Parameter author: `.import` for imports, `.restore` for backups.
    public init(vault: Vault, author: HistoryAuthor = .import) {
        self.vault = vault
        self.author = author
    }

    /// Works out what importing `parsed` would do. Reads the vault (and its
    /// secrets, to compare), writes nothing.
    public func plan(_ parsed: ParsedImport, skipInvalid: Bool = false) throws -> ImportPlan {
        try Self.plan(
            parsed, skipInvalid: skipInvalid, existing: vault.accounts(includingDeleted: true),
            preferences: vault.preferences(), secret: vault.secret(for:))
    }

    /// What importing `parsed` into a new, empty vault would do: a dry run
    /// where no vault exists yet.
    public static func planForEmptyVault(_ parsed: ParsedImport, skipInvalid: Bool = false) throws -> ImportPlan {
        try plan(
            parsed, skipInvalid: skipInvalid, existing: [], preferences: [:], secret: { _ in SecretBytes(count: 0) })
    }

    private static func plan(
        _ parsed: ParsedImport, skipInvalid: Bool, existing all: [Account], preferences: [String: String],
        secret: (UUID) throws -> SecretBytes
    ) throws -> ImportPlan {
        var plan = ImportPlan(format: parsed.format)
        plan.skipInvalid = skipInvalid
        plan.warnings = parsed.warnings
        plan.rejections = parsed.rejections
        let live = Dictionary(
            all.filter { $0.deletedAt == nil }.map { ($0.identityKey, $0) }, uniquingKeysWith: { first, _ in first })
        var usedIDs = Set(all.map(\.id))
        var seen: [String: ImportEntry] = [:]
        for var entry in parsed.entries {
            if let earlier = seen[entry.identityKey] {
                plan.record(entry, matching: earlier)
                continue
            }
            seen[entry.identityKey] = entry
            if let existing = live[entry.identityKey] {
                plan.recordExisting(
                    entry, sameSecret: try secret(existing.id) == entry.draft.secret, existing: existing)
                continue
            }
            if let id = entry.originalID, !usedIDs.insert(id).inserted { entry.originalID = nil }
            plan.additions.append(entry)
        }
        plan.rejections.sort { $0.position < $1.position }
        try planPreferences(parsed.preferences, current: preferences, into: &plan)
        return plan
    }

    /// Plans and, unless `dryRun`, applies, all or nothing. The plan that is
    /// applied is made inside the write transaction, from the vault as it is
    /// then: an account another process added or removed meanwhile is seen,
    /// as if the two commands had run one after the other. An import that
    /// invalid entries refuse changes nothing and is returned with its
    /// `plan.refusal`, as `planForEmptyVault` returns it, so that whoever
    /// reports it can list the entries and say what to do.
    @discardableResult
    public func run(_ parsed: ParsedImport, dryRun: Bool = false, skipInvalid: Bool = false) throws -> ImportOutcome {
        if dryRun { return ImportOutcome(plan: try plan(parsed, skipInvalid: skipInvalid), added: [], dryRun: true) }
        return try vault.write(author: author) { writer in
            let plan = try Self.plan(
                parsed, skipInvalid: skipInvalid, existing: writer.accounts(includingDeleted: true),
                preferences: writer.preferences(), secret: writer.secret(for:))
            // A refused plan changes nothing (`changesVault` is false).
            guard plan.changesVault else { return ImportOutcome(plan: plan, added: [], dryRun: false) }
            let added = try plan.additions.map { entry in
                try writer.insert(entry.draft, id: entry.originalID ?? UUID(), createdAt: entry.createdAt)
            }
            for key in plan.preferences.keys.sorted() {
                if let value = plan.preferences[key] { try writer.setPreference(key, to: value) }
            }
            return ImportOutcome(plan: plan, added: added, dryRun: false)
        }
    }

    /// Preferences the vault lacks are added; ones it has are kept, since
    /// the vault is the source of truth and a restore must not undo local changes.
    private static func planPreferences(
        _ preferences: [String: String], current: [String: String], into plan: inout ImportPlan
    ) throws {
        guard !preferences.isEmpty else { return }
        for (key, value) in preferences {
            switch current[key] {
            case nil: plan.preferences[key] = value
            case value?: continue
            case _?: plan.preferencesKept.append(key)
            }
        }
        plan.preferencesKept.sort()
        var combined = current
        combined.merge(plan.preferences) { local, _ in local }
        try PreferenceQuota.check(combined)
    }
}

extension ImportPlan {
    mutating func record(_ entry: ImportEntry, matching earlier: ImportEntry) {
        if earlier.draft.secret == entry.draft.secret {
            skipped.append(
                SkippedEntry(
                    position: entry.position, label: entry.label, reason: .duplicateInFile(of: earlier.position)))
        } else {
            rejections.append(
                ImportRejection(
                    position: entry.position, label: entry.label,
                    reason: .conflict(
                        "\(earlier.position) has the same name with a different secret; only the first was kept")))
        }
    }

    mutating func recordExisting(_ entry: ImportEntry, sameSecret: Bool, existing: Account) {
        if sameSecret {
            skipped.append(SkippedEntry(position: entry.position, label: entry.label, reason: .alreadyInVault))
        } else {
            rejections.append(
                ImportRejection(
                    position: entry.position, label: entry.label,
                    reason: .conflict(
                        "the vault already has \(TerminalText.sanitized(existing.label)) with a different secret; "
                            + "rename one of them and import again to keep both")))
        }
    }
}
