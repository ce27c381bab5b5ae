/// How far a sync has got, for a progress line.
public struct SyncProgress: Sendable, Equatable {
    public enum Step: String, Sendable, Equatable {
        case listing, importing, exporting, compacting
    }

    public var step: Step
    /// Objects done in this step so far.
    public var completed: Int
    /// Objects this step will handle, when known.
    public var total: Int?

    public init(step: Step, completed: Int, total: Int?) {
        self.step = step
        self.completed = completed
        self.total = total
    }
}
