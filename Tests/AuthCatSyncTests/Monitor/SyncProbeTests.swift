import AuthCatTestSupport
import AuthCatTesting
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

    func testARemoteThatNeverAnswersTimesOut() async {
        let started = Date()
        let result = await SyncProbe.check(HangingRemote(), timeout: .milliseconds(200))
        guard case .failed(let failure) = result else { return XCTFail("expected a failure, got \(result)") }
        XCTAssertEqual(failure.category, .unreachable)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }
}

/// A remote whose list never returns, not even when cancelled, like a hung network mount.
private struct HangingRemote: Remote {
    var displayLocation: String { "file:///hung" }
    func list(prefix: String) async throws -> [RemoteObject] {
        await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
        return []
    }
    func get(_ name: String) async throws -> Data? { nil }
    func put(_ name: String, data: Data) async throws {}
    func create(_ name: String, data: Data) async throws -> Bool { true }
    func delete(_ name: String) async throws {}
}
