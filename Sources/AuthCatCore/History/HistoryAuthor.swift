/// Who wrote a change: the command line, an import, a restore, or sync on behalf of another device.
public struct HistoryAuthor: Equatable, Sendable {
    public enum Kind: String, Codable, CaseIterable, Sendable {
        case cli, `import`, restore, sync
    }

    public var kind: Kind
    /// The device the change came from; nil means this device.
    public var device: DeviceReference?

    public static let cli = HistoryAuthor(kind: .cli)
    public static let `import` = HistoryAuthor(kind: .import)
    public static let restore = HistoryAuthor(kind: .restore)

    /// A change received through sync from another device.
    public static func sync(from device: DeviceReference) -> HistoryAuthor {
        HistoryAuthor(kind: .sync, device: device)
    }

    public init(kind: Kind, device: DeviceReference? = nil) {
        self.kind = kind
        self.device = device
    }
}

/// A device named in history.
public struct DeviceReference: Codable, Equatable, Hashable, Sendable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
