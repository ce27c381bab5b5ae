import Foundation

/// The devices of the remote vault this device syncs with, as its syncs
/// found them, and the one rule that turns a word typed on the command line
/// into one of them.
///
/// A device is named by its id (16 hex digits), by a prefix of its id at
/// least `minimumPrefixLength` digits long that no other id shares, or by its
/// name, which sync keeps unique among the devices of one remote vault. An
/// exact id wins, then an exact name, then a prefix: a device named `beef`
/// is the one `beef` names even when another id starts with those digits.
/// A word that names no device, or several, is refused with the candidates
/// listed (ids and names only: nothing here is secret).
public struct DeviceDirectory: Equatable, Sendable {
    /// One device of the remote vault.
    public struct Device: Codable, Equatable, Sendable {
        /// Its id on the remote: 16 lowercase hex digits.
        public var id: String
        /// Its name, carried inside its sealed batches (never in a certificate);
        /// nil for a device certified that has not written its first batch yet.
        public var name: String?
        /// When this device first read one of its objects (for this device:
        /// when it joined); nil when unknown.
        public var firstSeen: Date?
        /// When this device last read one of its objects (for this device:
        /// its last successful sync); nil when unknown.
        public var lastSeen: Date?
        /// Whether it is the device running the command.
        public var isThisDevice: Bool
        /// Whether a valid rotation record names it among the revoked
        /// (docs/FORMAT.md §5.9): it receives no new key and nothing it
        /// writes afterwards is accepted.
        public var isRevoked: Bool
        /// When it joined the remote vault: for this device, as its state
        /// recorded; for another, as its newest object read says (its own
        /// word, like its name); nil when unknown.
        public var joinedAt: Date?

        public init(
            id: String, name: String?, firstSeen: Date? = nil, lastSeen: Date? = nil, isThisDevice: Bool = false,
            isRevoked: Bool = false, joinedAt: Date? = nil
        ) {
            self.id = id
            self.name = name
            self.firstSeen = firstSeen
            self.lastSeen = lastSeen
            self.isThisDevice = isThisDevice
            self.isRevoked = isRevoked
            self.joinedAt = joinedAt
        }

        enum CodingKeys: String, CodingKey {
            case id, name, firstSeen, lastSeen, isThisDevice, isRevoked, joinedAt
        }

        /// Reads what older versions wrote too (no `firstSeen`, `isRevoked` or `joinedAt`).
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            firstSeen = try container.decodeIfPresent(Date.self, forKey: .firstSeen)
            lastSeen = try container.decodeIfPresent(Date.self, forKey: .lastSeen)
            isThisDevice = try container.decode(Bool.self, forKey: .isThisDevice)
            isRevoked = try container.decodeIfPresent(Bool.self, forKey: .isRevoked) ?? false
            joinedAt = try container.decodeIfPresent(Date.self, forKey: .joinedAt)
        }

        /// The first `shortIDLength` digits of its id: shown beside its name
        /// everywhere, so that a name cannot pass for another device's, and
        /// the same whatever other devices join (a prefix that long is unique
        /// among the devices of a vault but once in billions, and then the
        /// whole id still names each).
        public var shortID: String { String(id.prefix(Self.shortIDLength)) }

        /// The digits of a short id.
        public static let shortIDLength = 8

        /// What lists show for a device whose name no batch has told yet.
        public static let unnamed = "(no name yet)"
    }

    /// The shortest id prefix that names a device: shorter ones would name
    /// the wrong device too easily once a vault has a few.
    public static let minimumPrefixLength = 4

    /// Every device, by name, then id; devices with no name yet last.
    public let devices: [Device]

    public init(devices: [Device]) {
        self.devices = devices.sorted {
            ($0.name == nil ? 1 : 0, $0.name ?? "", $0.id) < ($1.name == nil ? 1 : 0, $1.name ?? "", $1.id)
        }
    }

    /// The device running the command, once it joined the remote vault.
    public var thisDevice: Device? { devices.first(where: \.isThisDevice) }

    /// The one device `word` names: its id, its name, or a unique prefix of its id.
    ///
    /// - Throws: `DeviceDirectory.NamingError.unknown` when it names none,
    ///   `.ambiguous` when it names several; both list the candidates.
    public func resolve(_ word: String) throws -> Device {
        let lowercased = word.lowercased()
        if let exact = devices.first(where: { $0.id == lowercased }) { return exact }
        let named = devices.filter { $0.name == word }
        if named.count == 1 { return named[0] }
        // Two devices that chose one name at the same moment share it until their next syncs.
        if named.count > 1 { throw NamingError.ambiguous(word, candidates: named) }
        guard lowercased.allSatisfy(\.isHexDigit), !lowercased.isEmpty else {
            throw NamingError.unknown(word, candidates: devices)
        }
        let prefixed = devices.filter { $0.id.hasPrefix(lowercased) }
        guard lowercased.count >= Self.minimumPrefixLength || prefixed.isEmpty else {
            throw NamingError.prefixTooShort(word, candidates: prefixed)
        }
        switch prefixed.count {
        case 0: throw NamingError.unknown(word, candidates: devices)
        case 1: return prefixed[0]
        default: throw NamingError.ambiguous(word, candidates: prefixed)
        }
    }
}
