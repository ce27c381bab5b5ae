import Foundation

/// Wraps a remote so that everything done through it ends by one deadline: a whole sync, push or setup.
///
/// Each request has its own deadline in its remote, but a server can answer
/// every one in time and still keep a sync going (a listing that always holds
/// one more folder). The deadline starts when the wrapper is made, once per
/// job; an operation in flight at the deadline is cancelled, and every later
/// one fails at once without a request. The failure is a `RemoteError` like
/// any other, so the job records it and `sync status` shows it. Closing is
/// not bounded: it must happen, deadline or not.
public final class DeadlineRemote: RemoteWrapper, Sendable {
    /// The remote that does the work.
    public let base: any Remote
    /// The seconds allowed, as the user set them (for the error).
    public let seconds: Int
    private let expiry: ContinuousClock.Instant

    /// The deadline when the user sets none: far longer than any honest sync takes.
    public static let defaultSeconds = 600
    /// The longest deadline that can be set: a day.
    public static let maximumSeconds = 86_400

    public init(_ base: any Remote, seconds: Int) {
        self.base = base
        self.seconds = seconds
        expiry = .now + .seconds(seconds)
    }

    /// The error of an operation past the deadline.
    public var exceeded: RemoteError {
        .protocolError(
            location: displayLocation, status: nil,
            detail: "the sync did not finish within its deadline of \(seconds) s: the server kept it busy or "
                + "answered too slowly; it was stopped there, nothing was lost, and the next sync starts again")
    }

    public func prepare() async throws {
        try await bounded { try await $0.prepare() }
    }

    public func list(prefix: String) async throws -> [RemoteObject] {
        try await bounded { try await $0.list(prefix: prefix) }
    }

    public func get(_ name: String) async throws -> Data? {
        try await bounded { try await $0.get(name) }
    }

    public func put(_ name: String, data: Data) async throws {
        try await bounded { try await $0.put(name, data: data) }
    }

    public func create(_ name: String, data: Data) async throws -> Bool {
        try await bounded { try await $0.create(name, data: data) }
    }

    public func delete(_ name: String) async throws {
        try await bounded { try await $0.delete(name) }
    }

    /// Runs `operation` on the base remote until it ends or the deadline passes, whichever is first.
    private func bounded<Value: Sendable>(
        _ operation: @escaping @Sendable (any Remote) async throws -> Value
    ) async throws -> Value {
        let left = expiry - .now
        guard left > .zero else { throw exceeded }
        let base = base
        let exceeded = exceeded
        return try await withThrowingTaskGroup(of: Ending<Value>.self) { group in
            group.addTask { .done(try await operation(base)) }
            group.addTask {
                try await Task.sleep(for: left)
                return .expired
            }
            defer { group.cancelAll() }
            // The first to end decides: the operation's result or error, or the deadline.
            guard case .done(let value) = try await group.next() else { throw exceeded }
            return value
        }
    }

    /// How a bounded operation ended.
    private enum Ending<Value: Sendable>: Sendable {
        case done(Value)
        case expired
    }
}
