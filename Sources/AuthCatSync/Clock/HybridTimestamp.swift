/// The time of one change: a hybrid logical clock reading plus the device that
/// made it, which breaks ties. Ordered, so "last writer wins" is `max`.
///
/// Written as `<wall>.<logical>.<device>`: wall-clock milliseconds since 1970,
/// a counter for changes within one millisecond, and the writer's device id.
struct HybridTimestamp: Comparable, Hashable, Codable, Sendable, CustomStringConvertible {
    var wall: Int64
    var logical: Int64
    var device: String

    static func < (a: HybridTimestamp, b: HybridTimestamp) -> Bool {
        (a.wall, a.logical, a.device) < (b.wall, b.logical, b.device)
    }

    var description: String { "\(wall).\(logical).\(device)" }

    init(wall: Int64, logical: Int64, device: String) {
        self.wall = wall
        self.logical = logical
        self.device = device
    }

    init?(_ text: String) {
        let parts = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let wall = Int64(parts[0]), let logical = Int64(parts[1]),
            wall >= 0, logical >= 0, !parts[2].isEmpty
        else { return nil }
        self.init(wall: wall, logical: logical, device: String(parts[2]))
    }

    init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let parsed = HybridTimestamp(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "invalid clock"))
        }
        self = parsed
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension HybridTimestamp {
    /// The stamp of a change the merge makes on its own to settle a label
    /// clash: the change it supersedes, `self`, with a writer sorting right
    /// after `self`'s device.
    ///
    /// It depends only on `self`, so every device that settles the same clash
    /// stamps it alike (equal stamps never carry different values: `variant`
    /// tells apart values that may differ). It sorts after `self` yet before
    /// every change made by a device that had seen `self` (those have a
    /// higher logical count), so a user's later change wins over the
    /// settlement wherever it was made, even when the clash is settled long
    /// after. No real device id contains `+`, so it never equals a real stamp.
    func settling(variant: String = "") -> HybridTimestamp {
        HybridTimestamp(wall: wall, logical: logical, device: "\(device)+clash\(variant)")
    }
}
