import AuthCatEssentials
import Foundation

/// Everything `authcat sync status` reports: the summary, each phase, and this device's sync facts.
///
/// Built by `fold(events:local:probe:now:policy:)`, a pure function of the
/// recorded events, the local sync state and an optional live probe.
public struct SyncStatus: Equatable, Sendable {
    public var summary: SyncStatus.Summary
    /// One sentence on why; nil when there is nothing to add.
    public var message: String?
    /// What the user can do, for the command line to word; nil when nothing needs doing.
    public var nextStep: NextStep?
    public var setup: SyncStatus.PhaseState
    public var `import`: SyncStatus.PhaseState
    public var export: SyncStatus.PhaseState
    /// The local sync state the status was folded from.
    public var local: SyncLocalState
    /// When an import and export last both succeeded.
    public var lastSuccessfulSync: Date?
    /// The live check of the remote, if one was made.
    public var probe: SyncProbeResult?

    public init(
        summary: SyncStatus.Summary, message: String? = nil, nextStep: NextStep? = nil,
        setup: SyncStatus.PhaseState = .notStarted,
        import: SyncStatus.PhaseState = .notStarted, export: SyncStatus.PhaseState = .notStarted,
        local: SyncLocalState, lastSuccessfulSync: Date? = nil, probe: SyncProbeResult? = nil
    ) {
        self.summary = summary
        self.message = message
        self.nextStep = nextStep
        self.setup = setup
        self.import = `import`
        self.export = export
        self.local = local
        self.lastSuccessfulSync = lastSuccessfulSync
        self.probe = probe
    }
}
