import AuthCatCore
import AuthCatEssentials

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
