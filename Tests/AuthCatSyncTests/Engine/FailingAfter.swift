import Foundation

@testable import AuthCatSync

/// Passes `requests` requests through, then fails every one as unreachable.
final class FailingAfter: Remote, @unchecked Sendable {
    let base: any Remote
    private let lock = NSLock()
    private var remaining: Int

    init(_ base: any Remote, requests: Int) {
        self.base = base
        remaining = requests
    }

    var displayLocation: String { base.displayLocation }

    private func check() throws {
        try lock.withLock {
            guard remaining > 0 else {
                throw RemoteError.unreachable(location: displayLocation, reason: "injected failure")
            }
            remaining -= 1
        }
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
