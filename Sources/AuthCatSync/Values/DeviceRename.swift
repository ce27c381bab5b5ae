/// A new name for this device: asked for by `sync devices rename`, or taken at
/// a sync because another device of the remote vault already carried the old one.
public struct DeviceRename: Sendable, Equatable {
    /// The name this device had.
    public var from: String
    /// The name it has now; its next batch carries it to the other devices.
    public var to: String

    public init(from: String, to: String) {
        self.from = from
        self.to = to
    }
}
