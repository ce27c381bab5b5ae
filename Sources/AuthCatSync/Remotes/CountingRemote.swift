import Foundation
import Synchronization

/// Wraps a remote and counts the requests made through it.
///
/// Every request is counted when it starts, whether it then succeeds or
/// fails; `prepare` and `close` are not counted.
public final class CountingRemote: RemoteWrapper, Sendable {
    /// The remote that does the work.
    public let base: any Remote
    private let current = Mutex(RemoteRequestCounts())

    public init(_ base: any Remote) {
        self.base = base
    }

    /// The requests counted so far.
    public var counts: RemoteRequestCounts {
        current.withLock { $0 }
    }

    /// Starts counting from zero again.
    public func reset() {
        current.withLock { $0 = RemoteRequestCounts() }
    }

    public func list(prefix: String) async throws -> [RemoteObject] {
        count { $0.list += 1 }
        return try await base.list(prefix: prefix)
    }

    public func get(_ name: String) async throws -> Data? {
        count { $0.get += 1 }
        return try await base.get(name)
    }

    public func put(_ name: String, data: Data) async throws {
        count {
            $0.put += 1
            $0.bytesWritten += data.count
        }
        try await base.put(name, data: data)
    }

    public func create(_ name: String, data: Data) async throws -> Bool {
        count {
            $0.put += 1
            $0.bytesWritten += data.count
        }
        return try await base.create(name, data: data)
    }

    public func delete(_ name: String) async throws {
        count { $0.delete += 1 }
        try await base.delete(name)
    }

    private func count(_ update: (inout RemoteRequestCounts) -> Void) {
        current.withLock { update(&$0) }
    }
}

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
