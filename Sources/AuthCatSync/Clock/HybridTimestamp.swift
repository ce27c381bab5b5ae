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
