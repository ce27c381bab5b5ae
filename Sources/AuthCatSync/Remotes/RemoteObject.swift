/// One object found by `Remote.list(prefix:)`.
public struct RemoteObject: Sendable, Hashable {
    /// The name relative to the remote's root, e.g. `devices/a1/batch-000001`.
    public var name: String
    /// The size in bytes.
    public var size: Int

    public init(name: String, size: Int) {
        self.name = name
        self.size = size
    }
}
