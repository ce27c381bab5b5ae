/// One object found by `Remote.list(prefix:)`.
public struct RemoteObject: Sendable, Hashable {
    /// The largest object any remote reads: 64 MiB, S3's own limit for the
    /// replies authcat reads whole, and far above any vault's objects.
    ///
    /// The remote is untrusted, so no remote reads more than this (nor more
    /// than the object's own listed or stated size): a larger object, or one
    /// that is not a plain file, is refused with `RemoteError.objectRefused`
    /// and reported like any rejected object.
    public static let maximumSize = 64 * 1024 * 1024

    /// The most entries one listing reads, over all its folders or pages: a
    /// remote that holds more (or a server that pages without end) makes the
    /// listing fail rather than grow without end. A vault's folder holds a
    /// manifest, markers and a few objects per device (compaction keeps them few).
    public static let maximumListed = 100_000

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
