/// A hybrid logical clock (Kulkarni et al., 2014): close to wall-clock time,
/// but never going backwards and always ahead of every timestamp received, so
/// a change made after seeing another one is ordered after it even when the
/// devices' clocks disagree.
struct HybridLogicalClock: Equatable, Sendable {
    var wall: Int64
    var logical: Int64

    static let zero = HybridLogicalClock(wall: 0, logical: 0)

    /// The timestamp of a local change made at `physical` milliseconds.
    mutating func tick(physical: Int64, device: String) -> HybridTimestamp {
        if physical > wall {
            wall = physical
            logical = 0
        } else {
            logical += 1
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
}
