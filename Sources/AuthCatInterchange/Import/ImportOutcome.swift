import AuthCatCore

/// What an import did (or, for a dry run, would do).
public struct ImportOutcome: Sendable {
    public var plan: ImportPlan
    /// The accounts added; empty for a dry run.
    public var added: [Account]
    public var dryRun: Bool

    /// The outcome as `--json` prints it.
    public var summary: ImportSummary { ImportSummary(self) }
}
