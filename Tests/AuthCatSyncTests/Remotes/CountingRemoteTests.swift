import AuthCatSync
import AuthCatTesting
import XCTest

final class CountingRemoteTests: XCTestCase {
    func testConformanceThroughTheWrapper() async throws {
        try await RemoteConformance(remote: CountingRemote(MemoryRemote())).runAll()
    }

    func testCountsEachKindAndBytesWritten() async throws {
        let base = MemoryRemote(location: "memory://counted")
        let remote = CountingRemote(base)
        XCTAssertEqual(remote.displayLocation, "memory://counted")
        try await remote.put("a", data: Data(count: 7))
        _ = try await remote.create("b", data: Data(count: 3))
        _ = try await remote.get("a")
        _ = try await remote.get("missing")
        _ = try await remote.list(prefix: "")
        try await remote.delete("a")
        XCTAssertEqual(remote.counts, RemoteRequestCounts(list: 1, get: 2, put: 2, delete: 1, bytesWritten: 10))
        XCTAssertEqual(remote.counts.total, 6)
        remote.reset()
        XCTAssertEqual(remote.counts.total, 0)
    }

    func testCountsFailedRequests() async throws {
        let base = MemoryRemote()
        let remote = CountingRemote(base)
        base.failNext()
        await assertRemoteError(.unreachable) { try await remote.get("a") }
        XCTAssertEqual(remote.counts.get, 1)
    }
}
