import AuthCatCore
import AuthCatEssentials

/// What an import will do, worked out before anything is written: a dry
/// run shows it, and `Importer.apply` carries it out in one transaction.
public struct ImportPlan: Sendable {
    public var format: ImportFormat
    /// Entries that will become new accounts, in file order.
    public var additions: [ImportEntry] = []
    public var skipped: [SkippedEntry] = []
    /// Invalid, unsupported and conflicting entries, in file order.
    public var rejections: [ImportRejection] = []
    public var warnings: [String] = []
    /// Synced preferences the vault lacks, to add (authcat backups only).
    public var preferences: [String: String] = [:]
    /// Preferences the vault already has with another value; the vault's value is kept.
    public var preferencesKept: [String] = []
    /// Whether invalid entries may be left out; otherwise they refuse the whole import.
    public var skipInvalid = false

    public init(format: ImportFormat) {
        self.format = format
    }

    /// The malformed entries; unless `skipInvalid`, any of them stops the import.
    public var invalidEntries: [ImportRejection] {
        rejections.filter { if case .invalid = $0.reason { true } else { false } }
    }

    /// Why `apply` would refuse this plan, or nil if it can go ahead.
    public var refusal: ImportError? {
        let invalid = invalidEntries
        return invalid.isEmpty || skipInvalid ? nil : .invalidEntries(invalid)
    }

    /// Whether applying the plan changes the vault at all.
    public var changesVault: Bool {
        refusal == nil && (!additions.isEmpty || !preferences.isEmpty)
    }
}

/// What an import did (or, for a dry run, would do).
public struct ImportOutcome: Sendable {
    public var plan: ImportPlan
    /// The accounts added; empty for a dry run.
    public var added: [Account]
    public var dryRun: Bool

    public init(plan: ImportPlan, added: [Account], dryRun: Bool) {
        self.plan = plan
        self.added = added
        self.dryRun = dryRun
    }

    /// The outcome as `--json` prints it.
    public var summary: ImportSummary { ImportSummary(self) }
}
