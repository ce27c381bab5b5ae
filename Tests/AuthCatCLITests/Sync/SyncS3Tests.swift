import AuthCatTestSupport
import Foundation
import XCTest

/// Sync through a real S3 server (moto on loopback): the whole flow, and the
/// states a network or credential problem leads to.
final class SyncS3Tests: SyncTestCase {
    func testTwoDevicesSyncThroughS3AndStatusSeesCredentialAndNetworkProblems() throws {
        let server = try MotoServer(logDirectory: scratch.path)
        defer { server.stop() }
        let url = server.location(prefix: "vault-\(UUID().uuidString.prefix(8))")
        let (first, second) = (try makeDevice(), try makeDevice())
        first.environment.merge(server.environment) { $1 }
        second.environment.merge(server.environment) { $1 }
        try add(first, "alice", issuer: "GitHub")

        XCTAssertTrue(try enable(first, remote: url).contains("created a new remote vault"))
        XCTAssertTrue(try enable(second, remote: url).contains("imported 1 change"))
        XCTAssertEqual(try labels(second), ["GitHub:alice"])
        try add(second, "bob")
        try succeed(second, ["sync", "now"])
        try succeed(first, ["sync", "now"])
        XCTAssertEqual(try labels(first), ["Example:bob", "GitHub:alice"])
        XCTAssertEqual(try status(first).status, 0)

        let wrongSecret = ["AWS_SECRET_ACCESS_KEY": "not-the-secret"]
        let rejected = try status(first, environment: wrongSecret)
        XCTAssertEqual(rejected.status, 6)
        XCTAssertEqual(rejected.json["summary"] as? String, "account not available")
        let failed = try first.run(["sync", "now"], environment: wrongSecret)
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stderr.contains("rejected the credentials"), failed.stderr)
        XCTAssertFalse(failed.stderr.contains("not-the-secret"), "no credential is ever printed")

        server.stop()
        let offline = try status(first)
        XCTAssertEqual(offline.status, 5)
        XCTAssertEqual(offline.json["summary"] as? String, "no network")
    }

    func testEnablingOnAClosedPortFailsAsNoNetworkAndLeavesSyncOff() throws {
        let device = try makeDevice()
        device.environment.merge(["AWS_ACCESS_KEY_ID": "AKIAEXAMPLE", "AWS_SECRET_ACCESS_KEY": "example"]) { $1 }
        let port = try FreePort.find()
        let result = try device.run([
            "sync", "enable", "--remote", "s3://bucket/vault?endpoint=http://127.0.0.1:\(port)&region=us-east-1",
        ])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("cannot reach"), result.stderr)
        // On a machine without a vault, the failed first enable leaves none behind (issue 33 §14).
        XCTAssertFalse(FileManager.default.fileExists(atPath: device.home.path), "nothing was changed")
        // With a vault, it leaves no lock file, and the monitor keeps the failure.
        try add(device, "alice")
        let again = try device.run([
            "sync", "enable", "--remote", "s3://bucket/vault?endpoint=http://127.0.0.1:\(port)&region=us-east-1",
        ])
        XCTAssertEqual(again.status, 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: device.home.path)
        XCTAssertFalse(files.contains("sync-run.lock"), "a failed enable leaves no lock file: \(files)")
        let (exitStatus, json) = try status(device)
        XCTAssertEqual(exitStatus, 0)
        XCTAssertEqual(json["summary"] as? String, "off")
        let setup = (json["phases"] as? [String: [String: Any]])?["setup"]
        XCTAssertEqual((setup?["error"] as? [String: Any])?["category"] as? String, "unreachable")
    }

    func testS3WithoutCredentialsSaysWhereToPutThem() throws {
        let device = try makeDevice()
        let result = try device.run([
            "sync", "enable", "--remote", "s3://bucket/vault?endpoint=http://127.0.0.1:9&region=us-east-1",
        ])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("AWS_ACCESS_KEY_ID"), result.stderr)
    }
}
