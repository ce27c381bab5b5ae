/// Who wrote a change: the command line, an import, a restore, sync on
/// behalf of another device, or a followed file (`authcat follow`).
public struct HistoryAuthor: Equatable, Sendable {
    public enum Kind: String, Codable, CaseIterable, Sendable {
        case cli, `import`, restore, sync, follow
    }

    public var kind: Kind
    /// The device the change came from; nil means this device.
    public var device: DeviceReference?
    /// The name of the followed file that made the change, for `.follow`.
    public var source: String?

    public static let cli = HistoryAuthor(kind: .cli)
    public static let `import` = HistoryAuthor(kind: .import)
    public static let restore = HistoryAuthor(kind: .restore)

    /// A change received through sync from another device.
    public static func sync(from device: DeviceReference) -> HistoryAuthor {
        HistoryAuthor(kind: .sync, device: device)
    }

    /// A change made by the followed file called `name`.
    public static func follow(_ name: String) -> HistoryAuthor {
        HistoryAuthor(kind: .follow, source: name)
    }

    public init(kind: Kind, device: DeviceReference? = nil, source: String? = nil) {
        self.kind = kind
        self.device = device
        self.source = source
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
