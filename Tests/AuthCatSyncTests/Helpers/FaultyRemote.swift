import Foundation

@testable import AuthCatSync

/// Wraps a remote and cuts it off after a given number of further requests,
/// the way a network drops in the middle of a sync.
final class FaultyRemote: RemoteWrapper, @unchecked Sendable {
    let base: any Remote
    private let lock = NSLock()
    private var requestsBeforeFailure: Int?

    /// - Parameter count: requests let through before every one fails; nil, none fails until `fail(after:)`.
    init(_ base: any Remote, failingAfter count: Int? = nil) {
        self.base = base
        requestsBeforeFailure = count
    }

    /// Lets `count` more requests through, then fails every one until `heal()`.
    func fail(after count: Int) {
        lock.withLock { requestsBeforeFailure = count }
    }

    func heal() {
        lock.withLock { requestsBeforeFailure = nil }
    }

    private func check() throws {
        try lock.withLock {
            guard let remaining = requestsBeforeFailure else { return }
            if remaining <= 0 { throw RemoteError.unreachable(location: displayLocation, reason: "injected failure") }
            requestsBeforeFailure = remaining - 1
        }
    }

    func prepare() async throws {
        try check()
        try await base.prepare()
    }
    func list(prefix: String) async throws -> [RemoteObject] {
        try check()
        return try await base.list(prefix: prefix)
    }
    func get(_ name: String) async throws -> Data? {
        try check()
        return try await base.get(name)
    }
    func put(_ name: String, data: Data) async throws {
        try check()
        try await base.put(name, data: data)
    }
    func create(_ name: String, data: Data) async throws -> Bool {
        try check()
        return try await base.create(name, data: data)
    }
    func delete(_ name: String) async throws {
        try check()
        try await base.delete(name)
    }
}
