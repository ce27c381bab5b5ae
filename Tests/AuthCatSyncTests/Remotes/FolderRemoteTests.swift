import AuthCatSync
import AuthCatTestSupport
import Foundation
import XCTest

final class FolderRemoteTests: XCTestCase {
    private var directory: TemporaryFolder!
    private var root: String { directory.path + "/remote" }

    override func setUpWithError() throws {
        directory = try makeTemporaryFolder()
    }

    private func makePreparedRemote() async throws -> FolderRemote {
        let remote = try FolderRemote(path: root)
        try await remote.prepare()
        return remote
    }

    func testConformance() async throws {
        try await RemoteConformance(remote: makePreparedRemote()).runAll()
    }

    func testDisplayLocationIsAFileURL() throws {
        XCTAssertEqual(try FolderRemote(path: "/srv/sync/authcat/").displayLocation, "file:///srv/sync/authcat/")
        XCTAssertEqual(try FolderRemote(path: "/srv/sync/authcat").rootPath, "/srv/sync/authcat")
    }

    func testRelativePathIsRejected() async throws {
        await assertRemoteError(.invalidLocation) { try FolderRemote(path: "sync/authcat") }
    }

    func testMissingRootIsContainerMissingAndNotCreated() async throws {
        let remote = try FolderRemote(path: root)
        await assertRemoteError(.containerMissing) { try await remote.list(prefix: "") }
        await assertRemoteError(.containerMissing) { try await remote.get("manifest") }
        await assertRemoteError(.containerMissing) { try await remote.put("manifest", data: Data()) }
        await assertRemoteError(.containerMissing) { try await remote.create("manifest", data: Data()) }
        await assertRemoteError(.containerMissing) { try await remote.delete("manifest") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: root), "no operation but prepare creates the root")
    }

    func testPrepareCreatesRootAndParentsWithMode0700() async throws {
        let nested = root + "/deeper/authcat"
        let remote = try FolderRemote(path: nested)
        try await remote.prepare()
        try await remote.prepare()
        XCTAssertEqual(try mode(of: root), 0o700)
        XCTAssertEqual(try mode(of: nested), 0o700)
    }

    func testFilesAre0600AndFoldersAre0700() async throws {
        let remote = try await makePreparedRemote()
        let oldMask = umask(0o022)
        defer { umask(oldMask) }
        try await remote.put("devices/d1/batch-000001", data: Data("a".utf8))
        _ = try await remote.create("devices/d2/manifest", data: Data("b".utf8))
        XCTAssertEqual(try mode(of: root + "/devices"), 0o700)
        XCTAssertEqual(try mode(of: root + "/devices/d1"), 0o700)
        XCTAssertEqual(try mode(of: root + "/devices/d1/batch-000001"), 0o600)
        XCTAssertEqual(try mode(of: root + "/devices/d2/manifest"), 0o600)
    }

    func testWritesLeaveNoTemporaryFiles() async throws {
        let remote = try await makePreparedRemote()
        try await remote.put("devices/d1/batch-000001", data: Data("a".utf8))
        _ = try await remote.create("devices/d1/batch-000001", data: Data("b".utf8))
        _ = try await remote.create("devices/d1/batch-000002", data: Data("c".utf8))
        let files = try FileManager.default.contentsOfDirectory(atPath: root + "/devices/d1").sorted()
        XCTAssertEqual(files, ["batch-000001", "batch-000002"])
    }

    func testListingIgnoresTemporaryConflictAndForeignFiles() async throws {
        let remote = try await makePreparedRemote()
        try await remote.put("devices/d1/batch-000001", data: Data("a".utf8))
        let foreign = [
            ".authcat-tmp-1234", "devices/d1/.authcat-tmp-99", ".stfolder/marker", ".stversions/manifest",
            "devices/d1/batch-000001.sync-conflict-20240102-030405-ABCDEFG", "devices/d1/.syncthing.batch-000002.tmp",
            "devices/d1/~syncthing~batch-000003.tmp", "manifest (conflicted copy 2024-01-02)", ".dropbox.cache/x",
            "devices/d1/batch-000001_conflict-20240101-101010", "devices/d1/batch-000001 (1)",
        ]
        for name in foreign {
            let url = URL(fileURLWithPath: root + "/" + name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("junk".utf8).write(to: url)
        }
        let names = try await remote.list(prefix: "").map(\.name)
        XCTAssertEqual(names, ["devices/d1/batch-000001"])
    }

    func testReadersNeverSeeAPartialObject() async throws {
        let remote = try await makePreparedRemote()
        let first = Data(repeating: 0x61, count: 2_000_000)
        let second = Data(repeating: 0x62, count: 1_000_000)
        try await remote.put("snapshot", data: first)
        let done = DoneFlag()
        let writer = Task {
            defer { done.set() }
            for round in 0..<20 { try await remote.put("snapshot", data: round.isMultiple(of: 2) ? second : first) }
        }
        var reads = 0
        while !done.isSet {
            let read = try await remote.get("snapshot")
            XCTAssertTrue(read == first || read == second, "a read saw \(read?.count ?? -1) bytes")
            reads += 1
        }
        try await writer.value
        XCTAssertGreaterThan(reads, 0)
    }

    func testObjectsWrittenByHandAreRead() async throws {
        let remote = try await makePreparedRemote()
        try FileManager.default.createDirectory(atPath: root + "/snapshots", withIntermediateDirectories: true)
        try Data("copied by a file-sync tool".utf8).write(to: URL(fileURLWithPath: root + "/snapshots/s1"))
        let read = try await remote.get("snapshots/s1")
        XCTAssertEqual(read, Data("copied by a file-sync tool".utf8))
        let folderAsObject = try await remote.get("snapshots")
        XCTAssertNil(folderAsObject, "a folder is not an object")
        try await remote.delete("snapshots")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: root + "/snapshots/s1"), "deleting a folder name does nothing")
    }

    /// A write killed part-way leaves a temporary; the first create in its
    /// folder removes it if it is older than the remote, and nothing else.
    func testTheFirstCreateInAFolderRemovesOnlyItsStaleTemporaries() async throws {
        let remote = try await makePreparedRemote()
        let own = root + "/authcat-v/d1"
        let other = root + "/authcat-v/d2"
        for folder in [own, other] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let stale = own + "/.authcat-tmp-dead1"
        // Stands for a write going on: changed after the remote was made.
        let current = own + "/.authcat-tmp-live1"
        let elsewhere = other + "/.authcat-tmp-dead2"
        let notOurs = own + "/.stale-but-not-ours"
        for (path, age) in [(stale, -3600.0), (current, 3600), (elsewhere, -3600), (notOurs, -3600)] {
            try touch(path, modified: Date(timeIntervalSinceNow: age))
        }

        try await remote.put("authcat-v/d1/snapshot-0000000001", data: Data("snapshot".utf8))
        XCTAssertTrue(FileManager.default.fileExists(atPath: stale), "a put leaves them")
        let created = try await remote.create("authcat-v/d1/b-0000000002", data: Data("batch".utf8))
        XCTAssertTrue(created)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale), "the stale temporary is removed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: current), "one changed since the remote was made is kept")
        XCTAssertTrue(FileManager.default.fileExists(atPath: notOurs), "only our temporaries")
        XCTAssertTrue(FileManager.default.fileExists(atPath: elsewhere), "a folder nothing was created in is left")

        let later = own + "/.authcat-tmp-dead3"
        try touch(later, modified: Date(timeIntervalSinceNow: -3600))
        let createdAgain = try await remote.create("authcat-v/d1/b-0000000003", data: Data("batch".utf8))
        XCTAssertTrue(createdAgain)
        XCTAssertTrue(FileManager.default.fileExists(atPath: later), "a folder is tidied once in a remote's life")
    }

    private func touch(_ path: String, modified: Date) throws {
        try Data("partial".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
    }

    private func mode(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
    }
}

/// A flag one task sets and another polls.
private final class DoneFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false
    var isSet: Bool { lock.withLock { done } }
    func set() { lock.withLock { done = true } }
}
