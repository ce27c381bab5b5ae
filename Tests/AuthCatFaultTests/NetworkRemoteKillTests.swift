import AuthCatSync
import AuthCatTestSupport
import Foundation
import XCTest

/// The kills of `KillTestCase` on a WebDAV server (lighttpd on loopback):
/// every killed command leaves a vault with every reported change, and the
/// server holds nothing but objects (no half-written file a device would read).
final class WebDAVKillTests: KillTestCase {
    private var remote: TestNetworkRemote?

    override var defaultKills: Int { 10 }

    override func tearDown() {
        remote?.stop()
        super.tearDown()
    }

    override func makeRemote() throws -> (location: String, environment: [String: String]) {
        let remote = try TestNetworkRemote(.webdav, scratch: scratch)
        self.remote = remote
        return (remote.location, remote.environment)
    }

    override func remoteLeftovers() throws -> [String] {
        try XCTUnwrap(remote).files().filter { !RemoteObjectName.isValid($0) }
    }

    func testRandomKillsOfEveryWritingCommandOnWebDAV() throws {
        try killEveryWritingCommandAtRandom()
    }
}

/// The kills of `KillTestCase` on an rclone remote (rclone's local backend):
/// authcat killed while its rclone child writes leaves no partial object.
final class RcloneKillTests: KillTestCase {
    private var remote: TestNetworkRemote?

    override var defaultKills: Int { 10 }

    override func makeRemote() throws -> (location: String, environment: [String: String]) {
        let remote = try TestNetworkRemote(.rclone, scratch: scratch)
        self.remote = remote
        return (remote.location, remote.environment)
    }

    override func remoteLeftovers() throws -> [String] {
        try XCTUnwrap(remote).files().filter { !RemoteObjectName.isValid($0) }
    }

    func testRandomKillsOfEveryWritingCommandOnRclone() throws {
        try killEveryWritingCommandAtRandom()
        // Every authcat run had its own rclone: none outlives its run, killed or not.
        let configuration = "RCLONE_CONFIG=" + (try XCTUnwrap(remote?.environment["RCLONE_CONFIG"]))
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !ChildProcesses.running(withEnvironment: configuration).isEmpty { usleep(50_000) }
        XCTAssertEqual(
            ChildProcesses.running(withEnvironment: configuration, program: "rclone"), [],
            "rclone processes left behind by killed runs")
    }
}
