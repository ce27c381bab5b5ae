import AuthCatSync
import AuthCatTesting
import XCTest

final class MemoryRemoteTests: XCTestCase {
    func testConformance() async throws {
        try await RemoteConformance(remote: MemoryRemote()).runAll()
    }

    func testFailNextMakesOperationsUnreachableThenRecovers() async throws {
        let remote = MemoryRemote()
        try await remote.put("manifest", data: Data("m".utf8))
        remote.failNext(2)
        await assertRemoteError(.unreachable) { try await remote.get("manifest") }
        await assertRemoteError(.unreachable) { try await remote.list(prefix: "") }
        let read = try await remote.get("manifest")
        XCTAssertEqual(read, Data("m".utf8))
    }

    func testFailNextWithChosenError() async throws {
        let remote = MemoryRemote()
        remote.failNext(with: .credentialsRejected(location: remote.displayLocation, reason: "test"))
        await assertRemoteError(.credentialsRejected) { try await remote.put("manifest", data: Data()) }
        let stored = remote.storedObjects
        XCTAssertEqual(stored, [:], "a failed put stores nothing")
    }

    func testCorruptReplaceAndRemoveObjects() async throws {
        let remote = MemoryRemote()
        try await remote.put("a", data: Data([0x10, 0x20]))
        XCTAssertTrue(remote.corruptObject("a", byteOffset: 1))
        let corrupted = try await remote.get("a")
        XCTAssertEqual(corrupted, Data([0x10, 0x21]))
        XCTAssertFalse(remote.corruptObject("missing"))

        remote.replaceObject("a", with: Data("replaced".utf8))
        let replaced = try await remote.get("a")
        XCTAssertEqual(replaced, Data("replaced".utf8))

        remote.removeObject("a")
        let removed = try await remote.get("a")
        XCTAssertNil(removed)
    }

    func testCountsRequestsAndBytesWritten() async throws {
        let remote = MemoryRemote()
        try await remote.put("a", data: Data(count: 10))
        _ = try await remote.create("a", data: Data(count: 5))
        _ = try await remote.get("a")
        _ = try await remote.list(prefix: "")
        try await remote.delete("a")
        remote.failNext()
        _ = try? await remote.get("a")
        XCTAssertEqual(remote.counts, RemoteRequestCounts(list: 1, get: 2, put: 2, delete: 1, bytesWritten: 15))
        remote.corruptObject("a")
        XCTAssertEqual(remote.counts.total, 6, "fault hooks are not requests")
        remote.resetCounts()
        XCTAssertEqual(remote.counts, RemoteRequestCounts())
    }
}
