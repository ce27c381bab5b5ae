/// A hybrid logical clock (Kulkarni et al., 2014): close to wall-clock time,
/// but never going backwards and always ahead of every timestamp received, so
/// a change made after seeing another one is ordered after it even when the
/// devices' clocks disagree.
///
/// Clocks arrive from other devices, so a device holding the master key could
/// send any value: `isAcceptable(_:physicalNow:)` bounds what is received, and
/// `tick` never overflows, whatever the clock holds (docs/FORMAT.md §5.6).
struct HybridLogicalClock: Equatable, Sendable {
    var wall: Int64
    var logical: Int64

    static let zero = HybridLogicalClock(wall: 0, logical: 0)

    /// How far ahead of this device's clock a received clock's wall time may be: one day.
    static let maximumLead: Int64 = 86_400_000
    /// The highest logical part a received clock may have. It counts changes
    /// within one millisecond of wall time (or while the wall is ahead of this
    /// device's clock), so 2^32 is far beyond any real count, and far enough
    /// below `Int64.max` that no sum near it overflows.
    static let maximumLogical: Int64 = 1 << 32

    /// The timestamp of a local change made at `physical` milliseconds.
    ///
    /// At `maximumLogical` the logical part carries into the wall (one
    /// millisecond later), which keeps the order; a clock at `Int64.max`
    /// (only from a poisoned state) stays there rather than trapping.
    mutating func tick(physical: Int64, device: String) -> HybridTimestamp {
        if physical > wall {
            wall = physical
            logical = 0
        } else if logical < Self.maximumLogical {
            logical += 1
        } else if wall < Int64.max {
            wall += 1
            logical = 0
        }
        return HybridTimestamp(wall: wall, logical: logical, device: device)
    }

    /// Moves the clock past a timestamp seen from another device.
    mutating func receive(_ timestamp: HybridTimestamp) {
        if timestamp.wall > wall || (timestamp.wall == wall && timestamp.logical > logical) {
            wall = timestamp.wall
            logical = timestamp.logical
        }
    }

    /// Whether a clock received from another device is believable: its wall
    /// time at most `maximumLead` ahead of `physicalNow` (this device's clock,
    /// in milliseconds) and its logical part at most `maximumLogical`.
    static func isAcceptable(_ timestamp: HybridTimestamp, physicalNow: Int64) -> Bool {
        timestamp.wall <= latestAcceptableWall(physicalNow: physicalNow) && timestamp.logical <= maximumLogical
    }

    /// Whether this clock, as stored, is one this device could have reached
    /// with every clock it received acceptable when `reference` was its time.
    func isWithinBounds(reference: Int64) -> Bool {
        wall <= Self.latestAcceptableWall(physicalNow: reference) && logical <= Self.maximumLogical
    }

    static func latestAcceptableWall(physicalNow: Int64) -> Int64 {
        let (sum, overflow) = physicalNow.addingReportingOverflow(maximumLead)
        return overflow ? Int64.max : sum
    }
}
