import AuthCatCore
import AuthCatEssentials
import AuthCatSync
import Foundation
import Synchronization

/// A remote held in memory, for tests, with hooks to inject faults.
///
/// It behaves like a real remote (names are validated, `create` never
/// overwrites, listing is sorted) and lets a test make it misbehave the way
/// real storage does: become unreachable, lose, replace or corrupt objects.
public final class MemoryRemote: Remote, Sendable {
    /// Everything that changes.
    struct State {
        var objects: [String: Data] = [:]
        var failures: [RemoteError] = []
        var counts = RemoteRequestCounts()
    }

    private let state = Mutex(State())

    public let displayLocation: String

    /// An empty remote; `location` is only what `displayLocation` shows.
    public init(location: String = "memory://test") {
        displayLocation = location
    }

    public func list(prefix: String) async throws -> [RemoteObject] {
        try RemoteObjectName.validatePrefix(prefix)
        return try operation({ $0.list += 1 }) { objects in
            objects
                .filter { $0.key.hasPrefix(prefix) }
                .map { RemoteObject(name: $0.key, size: $0.value.count, version: ObjectHash.of($0.value)) }
                .sorted { $0.name < $1.name }
        }
    }

    public func get(_ name: String) async throws -> Data? {
        try RemoteObjectName.validate(name)
        return try operation({ $0.get += 1 }) { $0[name] }
    }

    public func put(_ name: String, data: Data) async throws {
        try RemoteObjectName.validate(name)
        try operation({
            $0.put += 1
            $0.bytesWritten += data.count
        }) { $0[name] = data }
    }

    public func create(_ name: String, data: Data) async throws -> Bool {
        try RemoteObjectName.validate(name)
        return try operation({
            $0.put += 1
            $0.bytesWritten += data.count
        }) { objects in
            guard objects[name] == nil else { return false }
            objects[name] = data
            return true
        }
    }

    public func delete(_ name: String) async throws {
        try RemoteObjectName.validate(name)
        try operation({ $0.delete += 1 }) { $0[name] = nil }
    }

    /// Runs `body` on the state under the lock.
    func withState<Result: Sendable, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try state.withLock { state throws(Failure) in try body(&state) }
    }

    /// Counts a request, throws an injected failure if one is pending, else runs `body` on the objects.
    private func operation<Result: Sendable>(
        _ count: (inout RemoteRequestCounts) -> Void, _ body: (inout [String: Data]) throws -> Result
    ) throws -> Result {
        try withState { state in
            count(&state.counts)
            if !state.failures.isEmpty { throw state.failures.removeFirst() }
            return try body(&state.objects)
        }
    }
}
