import AuthCatTestSupport
import AuthCatTesting
import Synchronization
import XCTest

@testable import AuthCatSync

final class SyncProbeTests: XCTestCase {
    func testReachableRemoteMakesOneListRequest() async {
        let remote = MemoryRemote()
        let result = await SyncProbe.check(remote)
        XCTAssertEqual(result, .reachable)
        XCTAssertEqual(remote.counts.list, 1)
        XCTAssertEqual(remote.counts.get + remote.counts.put + remote.counts.delete, 0)
    }

    func testFailuresAreCategorized() async {
        let cases: [(RemoteError, SyncFailure.Category)] = [
            (.unreachable(location: "s3://b", reason: "connection refused"), .unreachable),
            (.credentialsRejected(location: "s3://b", reason: "InvalidAccessKeyId"), .credentialsRejected),
            (.containerMissing(location: "s3://b"), .containerMissing),
        ]
        for (error, category) in cases {
            let remote = MemoryRemote()
            remote.failNext(1, with: error)
            let result = await SyncProbe.check(remote)
            XCTAssertEqual(result, .failed(SyncFailure(category: category, message: error.description)))
        }
    }

    func testMissingFolderIsAContainerMissing() async throws {
        let folder = try makeTemporaryFolder().url.appendingPathComponent("not-mounted")
        let result = await SyncProbe.check(try FolderRemote(path: folder.path))
        guard case .failed(let failure) = result else { return XCTFail("expected a failure, got \(result)") }
        XCTAssertEqual(failure.category, .containerMissing)
    }

    /// The remote's list never returns, not even when cancelled: that the check
    /// returns at all shows that its deadline, not the remote, ends it.
    func testARemoteThatNeverAnswersTimesOut() async {
        let remote = HangingRemote()
        let result = await SyncProbe.check(remote, timeout: .milliseconds(200))
        guard case .failed(let failure) = result else { return XCTFail("expected a failure, got \(result)") }
        XCTAssertEqual(failure.category, .unreachable)
        XCTAssertTrue(failure.message.hasPrefix("file:///hung did not answer within"), failure.message)
        XCTAssertEqual(remote.lists.withLock { $0 }, 1, "the check asked once")
    }
}

/// A remote whose list never returns, not even when cancelled, like a hung network mount.
private final class HangingRemote: Remote {
    let lists = Mutex(0)
    var displayLocation: String { "file:///hung" }
    var capabilities: RemoteCapabilities { RemoteCapabilities(createOnlyEnforced: true) }
    func prepare() async throws {}
    func list(prefix: String) async throws -> [RemoteObject] {
        lists.withLock { $0 += 1 }
        await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
        return []
    }
    func get(_ name: String) async throws -> Data? { nil }
    func put(_ name: String, data: Data) async throws {}
    func create(_ name: String, data: Data) async throws -> Bool { true }
    func delete(_ name: String) async throws {}
    func close() async throws {}
}
