import AuthCatTesting
import Foundation
import Synchronization
import XCTest

@testable import AuthCatSync

/// Every wrapper passes on what it does not change: the remote's
/// capabilities, its preparation and its closing reach the wrapped remote.
final class RemoteWrapperTests: XCTestCase {
    private func checkPassesOn(_ wrap: (any Remote) -> any Remote, _ name: String) async throws {
        let base = DescribedRemote()
        let remote = wrap(base)
        XCTAssertEqual(remote.displayLocation, "described://", name)
        XCTAssertEqual(remote.capabilities, RemoteCapabilities(createOnlyEnforced: nil), name)
        try await remote.prepare()
        XCTAssertEqual(base.prepared, 1, "\(name) prepares the wrapped remote")
        try await remote.close()
        XCTAssertEqual(base.closed, 1, "\(name) closes the wrapped remote")
        try await RemoteConformance(remote: remote).runAll()
    }

    func testTheDeadlinePassesOnWhatItDoesNotChange() async throws {
        try await checkPassesOn({ DeadlineRemote($0, seconds: 600) }, "DeadlineRemote")
    }

    func testTheCounterPassesOnWhatItDoesNotChange() async throws {
        try await checkPassesOn({ CountingRemote($0) }, "CountingRemote")
    }

    func testTheFaultsPassOnWhatTheyDoNotChange() async throws {
        try await checkPassesOn({ FaultyRemote($0) }, "FaultyRemote")
    }

    func testWrappersOfWrappersPassOnToTheInnermost() async throws {
        try await checkPassesOn({ DeadlineRemote(CountingRemote(FaultyRemote($0)), seconds: 600) }, "three wrappers")
    }
}

/// A memory remote that describes itself as a store not yet probed, and
/// counts its preparations and closings.
private final class DescribedRemote: RemoteWrapper, Sendable {
    let base: any Remote = MemoryRemote(location: "described://")
    private let calls = Mutex((prepared: 0, closed: 0))

    var prepared: Int { calls.withLock { $0.prepared } }
    var closed: Int { calls.withLock { $0.closed } }

    var capabilities: RemoteCapabilities { RemoteCapabilities(createOnlyEnforced: nil) }

    func prepare() async throws {
        calls.withLock { $0.prepared += 1 }
        try await base.prepare()
    }

    func close() async throws {
        calls.withLock { $0.closed += 1 }
    }
}
