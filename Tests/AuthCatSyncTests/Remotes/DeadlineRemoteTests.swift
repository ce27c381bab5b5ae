import AuthCatSync
import AuthCatTesting
import Foundation
import Synchronization
import XCTest

/// One deadline for everything done through a remote: what is in flight at
/// the deadline is cancelled, and nothing is asked of the remote after it.
final class DeadlineRemoteTests: XCTestCase {
    func testConformanceThroughTheWrapper() async throws {
        try await RemoteConformance(remote: DeadlineRemote(MemoryRemote(), seconds: 600)).runAll()
    }

    func testAnOperationInFlightEndsAtTheDeadlineAndLaterOnesAreNotMade() async throws {
        let base = HangingRemote()
        let remote = DeadlineRemote(base, seconds: 1)
        do {
            _ = try await remote.list(prefix: "")
            XCTFail("expected the deadline")
        } catch let error as RemoteError {
            XCTAssertEqual(error, remote.exceeded)
            XCTAssertTrue(error.description.contains("did not finish within its deadline of 1 s"), error.description)
        }
        XCTAssertTrue(base.wasCancelled, "the operation in flight was cancelled")
        do {
            _ = try await remote.get("authcat-v/manifest")
            XCTFail("expected the deadline")
        } catch let error as RemoteError {
            XCTAssertEqual(error, remote.exceeded)
        }
        XCTAssertEqual(base.calls, 1, "nothing asked after the deadline")
        try await remote.close()
    }
}

/// A remote whose every operation waits until it is cancelled.
private final class HangingRemote: Remote, Sendable {
    private let state = Mutex((calls: 0, cancelled: false))

    var calls: Int { state.withLock { $0.calls } }
    var wasCancelled: Bool { state.withLock { $0.cancelled } }

    var displayLocation: String { "hanging://" }
    var capabilities: RemoteCapabilities { RemoteCapabilities(createOnlyEnforced: nil) }

    private func hang() async throws -> Never {
        state.withLock { $0.calls += 1 }
        do {
            while true { try await Task.sleep(for: .seconds(3600)) }
        } catch {
            state.withLock { $0.cancelled = true }
            throw error
        }
    }

    func prepare() async throws { try await hang() }
    func list(prefix: String) async throws -> [RemoteObject] { try await hang() }
    func get(_ name: String) async throws -> Data? { try await hang() }
    func put(_ name: String, data: Data) async throws { try await hang() }
    func create(_ name: String, data: Data) async throws -> Bool { try await hang() }
    func delete(_ name: String) async throws { try await hang() }
    func close() async throws {}
}
