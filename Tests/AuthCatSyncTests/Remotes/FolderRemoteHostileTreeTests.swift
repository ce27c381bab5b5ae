import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatSync

/// A folder remote whose tree someone else planted things in: links,
/// FIFOs, oversized files. Nothing outside the tree is read, written or
/// deleted through a link, and nothing odd is read at all; the root itself
/// may be a link, since users point it at a mount.
final class FolderRemoteHostileTreeTests: XCTestCase {
    private var directory: TemporaryFolder!
    private var root: String { directory.path + "/remote" }
    private var outside: String { directory.path + "/outside" }

    override func setUpWithError() throws {
        directory = try makeTemporaryFolder()
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data("outside batch".utf8).write(to: URL(fileURLWithPath: outside + "/batch-000001"))
        try Data("outside temporary".utf8).write(to: URL(fileURLWithPath: outside + "/.authcat-tmp-old"))
        let old = Date(timeIntervalSinceNow: -86_400 * 30)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: outside + "/.authcat-tmp-old")
    }

    private func preparedRemote(at path: String? = nil) async throws -> FolderRemote {
        let remote = try FolderRemote(path: path ?? root)
        try await remote.prepare()
        return remote
    }

    /// Every name in the outside folder with its bytes, to compare before and after.
    private func outsideContents() throws -> [String: Data] {
        var contents: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: outside) {
            contents[name] = try Data(contentsOf: URL(fileURLWithPath: outside + "/" + name))
        }
        return contents
    }

    func testTheRootMayBeALink() async throws {
        let real = directory.path + "/mount"
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root, withDestinationPath: real)
        let remote = try await preparedRemote()
        try await remote.put("devices/d1/batch-000001", data: Data("a".utf8))
        let created = try await remote.create("manifest", data: Data("m".utf8))
        XCTAssertTrue(created)
        let names = try await remote.list(prefix: "").map(\.name)
        XCTAssertEqual(names, ["devices/d1/batch-000001", "manifest"])
        let read = try await remote.get("devices/d1/batch-000001")
        XCTAssertEqual(read, Data("a".utf8))
        try await remote.delete("manifest")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: real + "/devices/d1/batch-000001"), "written through the root link")
        XCTAssertFalse(FileManager.default.fileExists(atPath: real + "/manifest"))
    }

    func testADeviceFolderReplacedByALinkIsNeitherFollowedNorWrittenThrough() async throws {
        let remote = try await preparedRemote()
        try await remote.put("devices/d0/batch-000001", data: Data("kept".utf8))
        try FileManager.default.createDirectory(atPath: root + "/devices", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/devices/d1", withDestinationPath: outside)
        let before = try outsideContents()

        let all = try await remote.list(prefix: "").map(\.name)
        XCTAssertEqual(all, ["devices/d0/batch-000001"], "the linked folder is skipped")
        let inside = try await remote.list(prefix: "devices/d1/")
        XCTAssertEqual(inside, [], "a prefix through a link lists nothing")
        await assertRemoteError(.objectRefused) { try await remote.get("devices/d1/batch-000001") }
        await assertRemoteError(.io) { try await remote.put("devices/d1/snapshot-000002", data: Data("secret".utf8)) }
        await assertRemoteError(.io) {
            _ = try await remote.create("devices/d1/batch-000002", data: Data("secret".utf8))
        }
        await assertRemoteError(.io) { try await remote.delete("devices/d1/batch-000001") }
        XCTAssertEqual(try outsideContents(), before, "nothing written or deleted outside the tree")
    }

    func testALinkedObjectIsNotReadAndIsReplacedRatherThanWrittenThrough() async throws {
        let remote = try await preparedRemote()
        try FileManager.default.createDirectory(atPath: root + "/devices/d1", withIntermediateDirectories: true)
        let link = root + "/devices/d1/batch-000001"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside + "/batch-000001")
        let before = try outsideContents()

        let listed = try await remote.list(prefix: "devices/")
        XCTAssertEqual(listed, [], "a link is not an object")
        await assertRemoteError(.objectRefused) { try await remote.get("devices/d1/batch-000001") }
        let created = try await remote.create("devices/d1/batch-000001", data: Data("new".utf8))
        XCTAssertFalse(created, "a link holds the name")
        try await remote.put("devices/d1/batch-000001", data: Data("new".utf8))
        XCTAssertEqual(try outsideContents(), before, "the link's target is not written")
        let read = try await remote.get("devices/d1/batch-000001")
        XCTAssertEqual(read, Data("new".utf8), "the link itself was replaced")

        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside + "/batch-000001")
        try await remote.delete("devices/d1/batch-000001")
        XCTAssertEqual(try outsideContents(), before, "deleting removes the link, not its target")
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: link))
    }

    func testAFIFOIsSkippedAndRefusedWithoutWaitingForAWriter() async throws {
        let remote = try await preparedRemote()
        try FileManager.default.createDirectory(atPath: root + "/devices/d1", withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(root + "/devices/d1/batch-000001", 0o600), 0)
        let listed = try await remote.list(prefix: "")
        XCTAssertEqual(listed, [], "a FIFO is not an object")
        let error = await assertRemoteError(.objectRefused) { try await remote.get("devices/d1/batch-000001") }
        XCTAssertTrue(error?.description.contains("a FIFO") == true, error?.description ?? "")
    }

    func testAnObjectOverTheBoundIsRefusedUnread() async throws {
        let remote = try await preparedRemote()
        let path = root + "/batch-000001"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        // Sparse: no disk space, and any read of it would show in memory.
        XCTAssertEqual(truncate(path, off_t(RemoteObject.maximumSize) + 1), 0)
        let listed = try await remote.list(prefix: "")
        XCTAssertEqual(
            listed.map(\.size), [RemoteObject.maximumSize + 1], "listed with its size, for the engine to judge")
        let error = await assertRemoteError(.objectRefused) { try await remote.get("batch-000001") }
        XCTAssertTrue(
            error?.description.contains("\(RemoteObject.maximumSize) bytes allowed") == true, error?.description ?? "")
    }

    func testAListingStopsAtItsBound() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for index in 0..<5 { try Data().write(to: URL(fileURLWithPath: root + "/batch-00000\(index)")) }
        let folder = try XCTUnwrap(try FolderFileSystem.Folder.root(root))
        XCTAssertEqual(try folder.entries(limit: 5).count, 5)
        XCTAssertThrowsError(try folder.entries(limit: 4)) { error in
            XCTAssertEqual((error as? RemoteError)?.kind, .io)
            XCTAssertTrue("\(error)".contains("more than 4 entries"), "\(error)")
        }
    }

    /// A tree planted deeper than any name of the format (FORMAT.md §5.1) is not walked: its folders are never opened.
    func testATreeDeeperThanTheFormatIsNotWalked() async throws {
        let remote = try await preparedRemote()
        try await remote.put("authcat-v/e-0000000001/d/b-0000000001", data: Data("deepest".utf8))
        var deep = root + "/authcat-v"
        for level in 0..<200 { deep += "/l\(level)" }
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        try Data("planted".utf8).write(to: URL(fileURLWithPath: deep + "/b-0000000001"))
        try Data("planted".utf8).write(to: URL(fileURLWithPath: root + "/authcat-v/l0/l1/l2/b-0000000001"))
        let names = try await remote.list(prefix: "").map(\.name)
        XCTAssertEqual(names, ["authcat-v/e-0000000001/d/b-0000000001"])
    }
}
