/// One object found by `Remote.list(prefix:)`.
public struct RemoteObject: Sendable, Hashable {
    /// The name relative to the remote's root, e.g. `devices/a1/batch-000001`.
    public var name: String
    /// The size in bytes.
    public var size: Int
    /// A tag that changes whenever the object is written again, even with
    /// the same size: S3's ETag, a folder file's inode and change time, a
    /// hash in memory. Nil when the remote cannot say; the engine then reads
    /// the object to tell.
    public var version: String?

    public init(name: String, size: Int, version: String? = nil) {
        self.name = name
        self.size = size
        self.version = version
    }
}
