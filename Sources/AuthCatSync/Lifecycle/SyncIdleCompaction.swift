import Foundation

/// When a long-running sync (`authcat sync watch`) compacts: once compaction
/// is due and the vault has been idle for a while.
///
/// A snapshot is as large as the whole vault, so it is written only while
/// nothing changes locally; a burst of edits keeps getting small batches.
public struct SyncIdleCompaction: Sendable, Equatable {
    /// How long no local change must have been made.
    public var idleTime: TimeInterval
    /// Batches since this device's last snapshot from which compaction is due.
    public var threshold: Int64

    public init(idleTime: TimeInterval, threshold: Int64 = SyncEngine.compactionThreshold) {
        self.idleTime = idleTime
        self.threshold = threshold
    }

    /// Whether to compact now rather than just sync.
    ///
    /// - Parameters:
    ///   - batchesSinceSnapshot: as the last sync reported it (`SyncReport.batchesSinceSnapshot`).
    ///   - lastLocalChange: when a local change was last seen (or the watch started).
    public func shouldCompact(batchesSinceSnapshot: Int64, lastLocalChange: Date, now: Date) -> Bool {
        batchesSinceSnapshot >= threshold && now.timeIntervalSince(lastLocalChange) >= idleTime
    }
}
