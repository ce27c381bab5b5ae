import Foundation

/// A device that writes to the same remote vault.
public struct SyncDeviceSeen: Codable, Equatable, Sendable {
    public var id: String
    public var name: String
    /// When its newest object was seen, if known.
    public var lastSeen: Date?
    /// Whether it is the device running the command.
    public var isThisDevice: Bool

    public init(id: String, name: String, lastSeen: Date? = nil, isThisDevice: Bool = false) {
        self.id = id
        self.name = name
        self.lastSeen = lastSeen
        self.isThisDevice = isThisDevice
    }
}
