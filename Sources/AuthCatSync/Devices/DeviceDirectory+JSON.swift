import Foundation

extension DeviceDirectory.Device {
    /// A device as every `--json` output shows it (docs/JSON.md): `sync
    /// devices`, and `devices_seen` in `sync status` and `sync now`.
    public struct JSONDocument: Encodable, Equatable, Sendable {
        public var device: DeviceDirectory.Device

        public init(_ device: DeviceDirectory.Device) {
            self.device = device
        }

        enum CodingKeys: String, CodingKey {
            case id, name, revoked
            case firstSeen = "first_seen"
            case joinedAt = "joined_at"
            case shortID = "short_id"
            case lastSeen = "last_seen"
            case thisDevice = "this_device"
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(device.id, forKey: .id)
            try container.encode(device.shortID, forKey: .shortID)
            try container.encode(device.name.map(DeviceName.escaped), forKey: .name)
            // Unknown times are null, never left out.
            try container.encode(device.joinedAt, forKey: .joinedAt)
            try container.encode(device.firstSeen, forKey: .firstSeen)
            try container.encode(device.lastSeen, forKey: .lastSeen)
            try container.encode(device.isThisDevice, forKey: .thisDevice)
            try container.encode(device.isRevoked, forKey: .revoked)
        }
    }

    public var jsonDocument: JSONDocument { JSONDocument(self) }
}
