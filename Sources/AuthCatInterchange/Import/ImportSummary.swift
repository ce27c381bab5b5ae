import AuthCatEssentials

/// The outcome of an import in the shape `--json` prints: counts, then each
/// added, skipped and rejected entry by position and label, never a secret.
public struct ImportSummary: Codable, Equatable, Sendable {
    public struct Item: Codable, Equatable, Sendable {
        /// 1-based entry number in the file.
        public var entry: Int
        /// Where in the file, in words ("line 3").
        public var position: String
        @NullWhenAbsent public var label: String?
        /// For rejections: invalid, unsupported or conflict.
        @NullWhenAbsent public var kind: String?
        @NullWhenAbsent public var reason: String?
    }

    public var format: String
    public var dryRun: Bool
    /// Whether the import was refused as a whole (invalid entries).
    public var refused: Bool
    public var added: Int
    public var skipped: Int
    public var rejected: Int
    public var preferencesAdded: Int
    public var addedEntries: [Item]
    public var skippedEntries: [Item]
    public var rejectedEntries: [Item]
    public var warnings: [String]

    enum CodingKeys: String, CodingKey {
        case format, refused, added, skipped, rejected, warnings
        case dryRun = "dry_run"
        case preferencesAdded = "preferences_added"
        case addedEntries = "added_entries"
        case skippedEntries = "skipped_entries"
        case rejectedEntries = "rejected_entries"
    }

    init(_ outcome: ImportOutcome) {
        let plan = outcome.plan
        format = plan.format.rawValue
        dryRun = outcome.dryRun
        refused = plan.refusal != nil
        added = refused ? 0 : plan.additions.count
        skipped = plan.skipped.count
        rejected = plan.rejections.count
        preferencesAdded = refused ? 0 : plan.preferences.count
        addedEntries =
            refused
            ? []
            : plan.additions.map {
                Item(entry: $0.position.number, position: $0.position.description, label: $0.label)
            }
        skippedEntries = plan.skipped.map {
            Item(entry: $0.position.number, position: $0.position.description, label: $0.label, reason: $0.message)
        }
        rejectedEntries = plan.rejections.map {
            Item(
                entry: $0.position.number, position: $0.position.description, label: $0.label, kind: $0.kind,
                reason: $0.message)
        }
        warnings = plan.warnings
    }
}
