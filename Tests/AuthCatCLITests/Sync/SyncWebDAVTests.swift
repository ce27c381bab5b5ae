import AuthCatTestSupport
import Foundation
import XCTest

/// Sync through real WebDAV servers and rclone as a user runs it: the
/// password from `AUTHCAT_WEBDAV_PASSWORD_FILE` or `~/.netrc`, never in argv
/// or output; `sync status` naming the kind of remote and whether create-only
/// writes are enforced; a wrong password and a vanished server as the
/// monitor's summaries and exit codes. One server of each kind for the class.
final class SyncWebDAVTests: SyncTestCase {
    private static let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("authcat-cli-webdav-\(UUID().uuidString)").path
    // Started from the synchronous class setUp (see MotoServer.ForTestClass).
    nonisolated(unsafe) private static var lighttpd: WebDAVServer?
    nonisolated(unsafe) private static var rcloneServe: WebDAVServer?
    nonisolated(unsafe) private static var startError: Error?

    override class func setUp() {
        super.setUp()
        do {
            for name in ["lighttpd", "rclone"] {
                try FileManager.default.createDirectory(
                    atPath: folder + "/" + name, withIntermediateDirectories: true)
            }
            lighttpd = try WebDAVServer(.lighttpd, folder: folder + "/lighttpd")
            rcloneServe = try WebDAVServer(.rclone, folder: folder + "/rclone")
        } catch {
            startError = error
        }
    }

    override class func tearDown() {
        lighttpd?.stop()
        rcloneServe?.stop()
        try? FileManager.default.removeItem(atPath: folder)
        super.tearDown()
    }

    private func server(_ server: WebDAVServer?) throws -> WebDAVServer {
        if let error = Self.startError { throw error }
        return try XCTUnwrap(server)
    }

    private func location(_ server: WebDAVServer) -> String {
        "dav://\(server.user)@127.0.0.1:\(server.port)/t-\(UUID().uuidString.prefix(8).lowercased())/authcat"
    }

    func testTwoDevicesSyncThroughWebDAVWithAPasswordFileAndNetrc() throws {
        let server = try server(Self.lighttpd)
        let url = location(server)
        let (first, second) = (try makeDevice(), try makeDevice())
        let passwordFile = scratch.appendingPathComponent("webdav-password")
        try write(server.password + "\nignored second line\n", to: passwordFile)
        first.environment["AUTHCAT_WEBDAV_PASSWORD_FILE"] = passwordFile.path
        let netrc = URL(fileURLWithPath: try XCTUnwrap(second.environment["HOME"])).appendingPathComponent(".netrc")
        try write("machine 127.0.0.1 login \(server.user) password \(server.password)\n", to: netrc)
        try add(first, "alice", issuer: "GitHub")

        let created = try enable(first, remote: url)
        XCTAssertTrue(created.contains("created a new remote vault"), created)
        XCTAssertFalse(created.contains(server.password))
        XCTAssertTrue(try enable(second, remote: url).contains("imported 1 change"))
        try add(second, "bob")
        try succeed(second, ["sync", "now"])
        try succeed(first, ["sync", "now"])
        XCTAssertEqual(try labels(first), ["Example:bob", "GitHub:alice"])

        let (exitStatus, json) = try status(first)
        XCTAssertEqual(exitStatus, 0)
        XCTAssertEqual(json["remote_kind"] as? String, "webdav")
        XCTAssertEqual(json["create_only_enforced"] as? Bool, true)
        let text = try succeed(first, ["sync", "status"])
        XCTAssertTrue(text.contains("remote kind: webdav, create-only writes enforced"), text)
        XCTAssertFalse(text.contains(server.password))

        let wrong = scratch.appendingPathComponent("wrong-password")
        try write("not-the-password\n", to: wrong)
        let rejected = try status(first, environment: ["AUTHCAT_WEBDAV_PASSWORD_FILE": wrong.path])
        XCTAssertEqual(rejected.status, 6)
        XCTAssertEqual(rejected.json["summary"] as? String, "account not available")
        let failed = try first.run(["sync", "now"], environment: ["AUTHCAT_WEBDAV_PASSWORD_FILE": wrong.path])
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stderr.contains("app password"), failed.stderr)
        XCTAssertFalse(failed.stderr.contains("not-the-password"), "no password is ever printed")
    }

    /// The push after a change runs with no terminal: the password comes from ~/.netrc.
    func testABackgroundPushReachesTheServer() throws {
        let server = try server(Self.lighttpd)
        let url = location(server)
        let (first, second) = (try makeDevice(), try makeDevice())
        for device in [first, second] {
            let home = URL(fileURLWithPath: try XCTUnwrap(device.environment["HOME"]))
            try write(
                "machine 127.0.0.1 login \(server.user) password \(server.password)\n",
                to: home.appendingPathComponent(".netrc"))
        }
        try enable(first, remote: url)
        try enable(second, remote: url)
        try add(first, "alice")
        XCTAssertTrue(
            try eventually {
                try status(first, offline: true).json["pending_local_changes"] as? Int == 0
            }, "the change was pushed")
        try succeed(second, ["sync", "now"])
        XCTAssertEqual(try labels(second), ["Example:alice"])
    }

    func testAServerThatIgnoresCreateOnlyWritesIsShownInStatus() throws {
        let server = try server(Self.rcloneServe)
        let device = try makeDevice()
        let passwordFile = scratch.appendingPathComponent("webdav-password")
        try write(server.password + "\n", to: passwordFile)
        device.environment["AUTHCAT_WEBDAV_PASSWORD_FILE"] = passwordFile.path
        try add(device, "alice")
        try enable(device, remote: location(server))
        let (exitStatus, json) = try status(device)
        XCTAssertEqual(exitStatus, 0)
        XCTAssertEqual(json["create_only_enforced"] as? Bool, false)
        let text = try succeed(device, ["sync", "status"])
        XCTAssertTrue(text.contains("remote kind: webdav, create-only writes not enforced by the server"), text)
    }

    func testWithoutAPasswordOrATerminalEnableSaysWhereItGoes() throws {
        let server = try server(Self.lighttpd)
        let device = try makeDevice()
        let result = try device.run(["sync", "enable", "--remote", location(server)])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("AUTHCAT_WEBDAV_PASSWORD_FILE"), result.stderr)
        XCTAssertTrue(result.stderr.contains("~/.netrc"), result.stderr)
        XCTAssertEqual(try status(device).json["summary"] as? String, "off")
    }

    func testAPasswordInTheURLAndPlainHTTPToAnotherMachineAreRefused() throws {
        let device = try makeDevice()
        let withPassword = try device.run(["sync", "enable", "--remote", "davs://alice:hunter2@nas.example/authcat"])
        XCTAssertEqual(withPassword.status, 64, "a value --remote does not take")
        XCTAssertFalse(withPassword.stderr.contains("hunter2"), withPassword.stderr)
        XCTAssertTrue(withPassword.stderr.contains("AUTHCAT_WEBDAV_PASSWORD_FILE"), withPassword.stderr)
        let cleartext = try device.run(["sync", "enable", "--remote", "dav://alice@nas.example/authcat"])
        XCTAssertEqual(cleartext.status, 64)
        XCTAssertTrue(cleartext.stderr.contains("allow_http=true"), cleartext.stderr)
    }

    func testRcloneWithItsOwnConfiguration() throws {
        let device = try makeDevice()
        let folder = scratch.appendingPathComponent("rclone-remote").path
        device.environment["RCLONE_CONFIG"] = scratch.appendingPathComponent("rclone.conf").path
        device.environment["RCLONE_CONFIG_BOX_TYPE"] = "local"
        try add(device, "alice")
        try enable(device, remote: "rclone:box:" + folder)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder))
        let (exitStatus, json) = try status(device)
        XCTAssertEqual(exitStatus, 0)
        XCTAssertEqual(json["remote_kind"] as? String, "rclone")
        XCTAssertEqual(json["create_only_enforced"] as? Bool, false)
        let missing = try device.run(["sync", "now"], environment: ["AUTHCAT_RCLONE": "/nonexistent/rclone"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("Debian's rclone package"), missing.stderr)
    }
}
