import Foundation

@testable import AuthCatSync

/// Passes every request through, and runs `action` once, just after the
/// first object was written: something goes wrong once the export has begun.
final class AtFirstWrite: RemoteWrapper, @unchecked Sendable {
    let base: any Remote
    private let lock = NSLock()
    private var action: (() throws -> Void)?
    private var outcome: Result<Void, any Error>?

    init(_ base: any Remote, _ action: @escaping () throws -> Void) {
        self.base = base
        self.action = action
    }

    /// How `action` went; nil while it has not run.
    var actionOutcome: Result<Void, any Error>? { lock.withLock { outcome } }

    func put(_ name: String, data: Data) async throws {
        try await base.put(name, data: data)
        runActionOnce()
    }

    func create(_ name: String, data: Data) async throws -> Bool {
        let created = try await base.create(name, data: data)
        runActionOnce()
        return created
    }

    private func runActionOnce() {
        lock.withLock {
            guard let action else { return }
            self.action = nil
            outcome = Result { try action() }
        }
    }
}
