import AuthCatTestSupport
import Foundation
import XCTest

// The scenarios of `sync watch` and `sync disable` (here only, `--everywhere`,
// `--delete-remote`) run again, unchanged, with the devices sharing a WebDAV
// server (lighttpd on loopback) or an rclone remote (rclone's local backend)
// instead of a folder: each subclass inherits every test of its class and
// only names the remote. (Linux's test discovery finds a class by a test it
// declares itself, then runs the inherited ones too: each declares that
// `sync status` names its kind of remote.)

/// `sync watch` on a WebDAV server.
final class SyncWatchWebDAVTests: SyncWatchTests {
    override class var sharedRemoteKind: TestNetworkRemote.Kind? { .webdav }

    func testStatusNamesTheWebDAVRemote() throws {
        try assertStatusNamesTheRemoteKind("webdav")
    }
}

/// `sync watch` on an rclone remote.
final class SyncWatchRcloneTests: SyncWatchTests {
    override class var sharedRemoteKind: TestNetworkRemote.Kind? { .rclone }

    func testStatusNamesTheRcloneRemote() throws {
        try assertStatusNamesTheRemoteKind("rclone")
    }
}

/// `sync disable` on a WebDAV server.
final class SyncDisableWebDAVTests: SyncDisableTests {
    override class var sharedRemoteKind: TestNetworkRemote.Kind? { .webdav }

    func testStatusNamesTheWebDAVRemote() throws {
        try assertStatusNamesTheRemoteKind("webdav")
    }
}

/// `sync disable` on an rclone remote.
final class SyncDisableRcloneTests: SyncDisableTests {
    override class var sharedRemoteKind: TestNetworkRemote.Kind? { .rclone }

    func testStatusNamesTheRcloneRemote() throws {
        try assertStatusNamesTheRemoteKind("rclone")
    }

    /// rclone makes the folders it writes into (as S3 has none to miss): with the
    /// remote's folder gone, the marker is written anyway and sync stops everywhere.
    override func testDisableEverywhereWithTheRemoteGoneStillTurnsSyncOffHere() throws {
        let device = try makeDevice()
        try enable(device)
        try FileManager.default.removeItem(at: remoteFolder)
        let result = try device.run(["sync", "disable", "--everywhere"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("every device"), result.stdout)
        XCTAssertEqual(try status(device).json["summary"] as? String, "off")
    }
}

extension SyncTestCase {
    /// `sync status` of a device that turned sync on says which kind of remote it syncs to.
    func assertStatusNamesTheRemoteKind(_ kind: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let device = try makeDevice()
        try enable(device)
        let json = try status(device).json
        XCTAssertEqual(json["remote_kind"] as? String, kind, file: file, line: line)
        let text = try device.run(["sync", "status"]).stdout
        XCTAssertTrue(text.contains("remote kind: \(kind)"), text, file: file, line: line)
    }
}
