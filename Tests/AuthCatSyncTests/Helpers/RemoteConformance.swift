import AuthCatSync
import Foundation
import XCTest

/// The behaviour every `Remote` must show, run against each implementation.
///
/// The remote must start empty. Each check cleans up after itself so the
/// checks can run in any order on one remote.
struct RemoteConformance {
    let remote: any Remote
    /// Whether two racing `create` calls are guaranteed to let only one win.
    var createIsAtomic = true

    func runAll() async throws {
        try await checkEmptyRemote()
        try await checkPutGetRoundTrip()
        try await checkPutOverwrites()
        try await checkCreateNeverOverwrites()
        try await checkRacingCreatesHaveOneWinner()
        try await checkListPrefixes()
        try await checkDelete()
        try await checkBinaryAndEmptyObjects()
        try await checkInvalidNamesRejected()
        try await checkVersionChangesWhenRewrittenAtTheSameSize()
    }

    /// Names and sizes only: versions are checked by `checkVersionChangesWhenRewrittenAtTheSameSize`.
    func namesAndSizes(_ prefix: String) async throws -> [RemoteObject] {
        try await remote.list(prefix: prefix).map { RemoteObject(name: $0.name, size: $0.size) }
    }

    /// A repaired object (written again with the same size) must not look
    /// unchanged, or a device would never read it again after rejecting it.
    func checkVersionChangesWhenRewrittenAtTheSameSize() async throws {
        try await remote.put("manifest", data: Data("tampered".utf8))
        let before = try await remote.list(prefix: "manifest")
        try await remote.put("manifest", data: Data("repaired".utf8))
        let after = try await remote.list(prefix: "manifest")
        XCTAssertEqual(before.map(\.size), after.map(\.size))
        XCTAssertNotNil(before.first?.version, "the remote lists versions")
        XCTAssertNotEqual(before.first?.version, after.first?.version, "an object written again has a new version")
        let unchanged = try await remote.list(prefix: "manifest")
        XCTAssertEqual(after.first?.version, unchanged.first?.version, "listing again does not change it")
        try await remote.delete("manifest")
    }

    func checkEmptyRemote() async throws {
        let objects = try await remote.list(prefix: "")
        XCTAssertEqual(objects, [], "a fresh remote lists nothing")
        let missing = try await remote.get("manifest")
        XCTAssertNil(missing, "get of an absent object is nil")
        try await remote.delete("devices/none/batch-000001")
    }

    func checkPutGetRoundTrip() async throws {
        let data = Data("sealed batch".utf8)
        try await remote.put("devices/d1/batch-000001", data: data)
        let read = try await remote.get("devices/d1/batch-000001")
        XCTAssertEqual(read, data)
        let listed = try await namesAndSizes("")
        XCTAssertEqual(listed, [RemoteObject(name: "devices/d1/batch-000001", size: data.count)])
        try await remote.delete("devices/d1/batch-000001")
    }

    func checkPutOverwrites() async throws {
        try await remote.put("manifest", data: Data("first version".utf8))
        try await remote.put("manifest", data: Data("second".utf8))
        let read = try await remote.get("manifest")
        XCTAssertEqual(read, Data("second".utf8))
        let listed = try await namesAndSizes("manifest")
        XCTAssertEqual(listed, [RemoteObject(name: "manifest", size: 6)])
        try await remote.delete("manifest")
    }

    func checkCreateNeverOverwrites() async throws {
        let created = try await remote.create("manifest", data: Data("original".utf8))
        XCTAssertTrue(created, "create of a new name succeeds")
        let again = try await remote.create("manifest", data: Data("intruder".utf8))
        XCTAssertFalse(again, "create of an existing name reports false")
        let read = try await remote.get("manifest")
        XCTAssertEqual(read, Data("original".utf8), "create never overwrites")
        try await remote.delete("manifest")
        let afterDelete = try await remote.create("manifest", data: Data("new".utf8))
        XCTAssertTrue(afterDelete, "create works again once the object is deleted")
        try await remote.delete("manifest")
    }

    func checkRacingCreatesHaveOneWinner() async throws {
        guard createIsAtomic else {
            print("conformance: racing creates not checked: this server does not promise one winner")
            return
        }
        let remote = self.remote
        let results = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for writer in 0..<8 {
                group.addTask { (writer, try await remote.create("race", data: Data("writer \(writer)".utf8))) }
            }
            return try await group.reduce(into: [(Int, Bool)]()) { $0.append($1) }
        }
        let winners = results.filter(\.1).map(\.0)
        XCTAssertEqual(winners.count, 1, "exactly one racing create wins")
        let read = try await remote.get("race")
        XCTAssertEqual(read, winners.first.map { Data("writer \($0)".utf8) })
        try await remote.delete("race")
    }

    func checkListPrefixes() async throws {
        let names = [
            "manifest", "devices/a/batch-000001", "devices/a/batch-000002",
            "devices/b/batch-000001", "devices/b/snapshot", "snapshots/s-1",
        ]
        for (index, name) in names.enumerated() {
            try await remote.put(name, data: Data(repeating: UInt8(index), count: index + 1))
        }
        try await expectList("", names.sorted())
        try await expectList("devices/", names.filter { $0.hasPrefix("devices/") }.sorted())
        try await expectList("devices/a/batch-", ["devices/a/batch-000001", "devices/a/batch-000002"])
        try await expectList("dev", names.filter { $0.hasPrefix("devices/") }.sorted())
        try await expectList("devices/b/", ["devices/b/batch-000001", "devices/b/snapshot"])
        try await expectList("devices/c/", [])
        try await expectList("snapshots", ["snapshots/s-1"])
        try await expectList("manifest", ["manifest"])
        let sizes = try await remote.list(prefix: "devices/a/").map(\.size)
        XCTAssertEqual(sizes, [2, 3], "list reports sizes")
        for name in names { try await remote.delete(name) }
        try await expectList("", [])
    }

    private func expectList(_ prefix: String, _ expected: [String]) async throws {
        let names = try await remote.list(prefix: prefix).map(\.name)
        XCTAssertEqual(names, expected, "list(prefix: \(prefix.debugDescription))")
    }

    func checkDelete() async throws {
        try await remote.put("devices/d/batch-000001", data: Data("x".utf8))
        try await remote.put("devices/d/batch-000002", data: Data("y".utf8))
        try await remote.delete("devices/d/batch-000001")
        let gone = try await remote.get("devices/d/batch-000001")
        XCTAssertNil(gone)
        let kept = try await remote.get("devices/d/batch-000002")
        XCTAssertEqual(kept, Data("y".utf8))
        try await remote.delete("devices/d/batch-000001")
        try await remote.delete("devices/d/batch-000002")
        try await expectList("", [])
    }

    func checkBinaryAndEmptyObjects() async throws {
        let binary = Data((0..<256).map { UInt8($0) } + (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try await remote.put("binary", data: binary)
        try await remote.put("empty", data: Data())
        let readBinary = try await remote.get("binary")
        XCTAssertEqual(readBinary, binary)
        let readEmpty = try await remote.get("empty")
        XCTAssertEqual(readEmpty, Data(), "an empty object exists and is not nil")
        let listed = try await namesAndSizes("")
        XCTAssertEqual(
            listed, [RemoteObject(name: "binary", size: binary.count), RemoteObject(name: "empty", size: 0)])
        try await remote.delete("binary")
        try await remote.delete("empty")
    }

    static let invalidNames = [
        "", "/manifest", "../manifest", "devices/../../etc/passwd", "devices//a", "devices/",
        ".hidden", "devices/.tmp", "a b", "caf\u{E9}", "a\\b", "a?b", "a%2Fb", "x.sync-conflict-20240101-000000-ABC",
        String(repeating: "a", count: 513),
    ]

    func checkInvalidNamesRejected() async throws {
        for name in Self.invalidNames {
            await assertRemoteError(.invalidObjectName, "get \(name.debugDescription)") { try await remote.get(name) }
            await assertRemoteError(.invalidObjectName, "put \(name.debugDescription)") {
                try await remote.put(name, data: Data("x".utf8))
            }
            await assertRemoteError(.invalidObjectName, "create \(name.debugDescription)") {
                try await remote.create(name, data: Data("x".utf8))
            }
            await assertRemoteError(.invalidObjectName, "delete \(name.debugDescription)") {
                try await remote.delete(name)
            }
        }
        for prefix in ["/", "../", "devices//", "a b", ".hidden/"] {
            await assertRemoteError(.invalidObjectName, "list \(prefix.debugDescription)") {
                try await remote.list(prefix: prefix)
            }
        }
        try await expectList("", [])
    }
}
