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
        /// Whether listings give each object's version, as S3 and WebDAV do.
        var listsVersions = true
    }

    private let state = Mutex(State())

    public let displayLocation: String

    /// An empty remote; `location` is only what `displayLocation` shows.
    public init(location: String = "memory://test") {
        displayLocation = location
    }

    /// Create-only under the lock, as a store that enforces it.
    public var capabilities: RemoteCapabilities { RemoteCapabilities(createOnlyEnforced: true) }

    /// Nothing to set up: it only checks that it can list.
    public func prepare() async throws {
        _ = try await list(prefix: "")
    }

    /// Nothing to release.
    public func close() async throws {}

    public func list(prefix: String) async throws -> [RemoteObject] {
        try RemoteObjectName.validatePrefix(prefix)
        let listsVersions = withState { $0.listsVersions }
        return try operation({ $0.list += 1 }) { objects in
            objects
                .filter { $0.key.hasPrefix(prefix) }
                .map {
                    RemoteObject(
                        name: $0.key, size: $0.value.count, version: listsVersions ? ObjectHash.of($0.value) : nil)
                }
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

/// Hooks that let a test inspect the remote and make it misbehave.
///
/// None of these count as requests.
extension MemoryRemote {
    /// The requests served so far; injected failures count too.
    public var counts: RemoteRequestCounts {
        withState { $0.counts }
    }

    /// Starts counting from zero again.
    public func resetCounts() {
        withState { $0.counts = RemoteRequestCounts() }
    }

    /// Makes the next `count` operations (of any kind) fail with `error`.
    ///
    /// Failures queue up: calling this twice adds to the pending ones.
    public func failNext(_ count: Int = 1, with error: RemoteError? = nil) {
        let failure = error ?? .unreachable(location: displayLocation, reason: "injected failure")
        withState { $0.failures += Array(repeating: failure, count: count) }
    }

    /// All object names and contents, as a test would see them on the store.
    public var storedObjects: [String: Data] {
        withState { $0.objects }
    }

    /// Makes listings give no versions from now on, as a store that has none.
    public func stopListingVersions() {
        withState { $0.listsVersions = false }
    }

    /// Replaces (or adds) an object behind the remote's back, as another writer or an attacker would.
    public func replaceObject(_ name: String, with data: Data) {
        withState { $0.objects[name] = data }
    }

    /// Flips one bit of an object so that authentication of it must fail.
    ///
    /// - Returns: `false` if the object does not exist or is empty.
    @discardableResult
    public func corruptObject(_ name: String, byteOffset: Int = 0) -> Bool {
        withState { state in
            guard var data = state.objects[name], !data.isEmpty else { return false }
            let index = data.startIndex + min(max(byteOffset, 0), data.count - 1)
            data[index] ^= 0x01
            state.objects[name] = data
            return true
        }
    }

    /// Loses an object behind the remote's back.
    public func removeObject(_ name: String) {
        withState { $0.objects[name] = nil }
    }
}
