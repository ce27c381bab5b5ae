/// How many requests of each kind a remote served, and how many bytes were written.
///
/// `create` counts as a put. Used by tests and benchmarks to check that the
/// sync engine does not make more requests than it needs.
public struct RemoteRequestCounts: Sendable, Equatable {
    public var list = 0
    public var get = 0
    public var put = 0
    public var delete = 0
    /// Bytes sent by successful and failed puts and creates alike.
    public var bytesWritten = 0

    public init(list: Int = 0, get: Int = 0, put: Int = 0, delete: Int = 0, bytesWritten: Int = 0) {
        self.list = list
        self.get = get
        self.put = put
        self.delete = delete
        self.bytesWritten = bytesWritten
    }

    /// All requests of every kind.
    public var total: Int { list + get + put + delete }
}
