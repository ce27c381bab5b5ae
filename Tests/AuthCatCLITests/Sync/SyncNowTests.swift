import Foundation
import XCTest

/// `authcat sync now`: reports, preference changes, and recovery from a killed sync.
final class SyncNowTests: SyncTestCase {
    func testSyncNowWhenOffFails() throws {
        let device = try makeDevice()
        try add(device, "alice")
        let result = try device.run(["sync", "now"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("sync is off"), result.stderr)
    }

    func testReportsCountsAndPreferenceChangesWithTheirReasons() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try add(first, "alice")
        try succeed(first, ["config", "set", "--synced", "user.theme", "dark"])
        try enable(first)
        let joined = try enable(second)
        XCTAssertTrue(joined.contains("preference \"user.theme\" changed: initial sync"), joined)

        try succeed(first, ["config", "set", "--synced", "user.theme", "light"])
        try add(first, "bob")
        try succeed(first, ["sync", "now"])
        let output = try succeed(second, ["sync", "now", "--json"])
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        XCTAssertEqual(report["imported"] as? Int, 2, output)
        XCTAssertEqual(report["exported"] as? Int, 0)
        XCTAssertEqual((report["rejected"] as? [Any])?.count, 0)
        let changes = try XCTUnwrap(report["preference_changes"] as? [[String: String]])
        XCTAssertEqual(changes, [["key": "user.theme", "reason": "server_change"]])
        let devices = try XCTUnwrap(report["devices_seen"] as? [[String: Any]])
        XCTAssertEqual(
            devices.filter { $0["this_device"] as? Bool == false }.count, 1, "the other device, which wrote objects")
        XCTAssertEqual(try succeed(second, ["config", "get", "--synced", "user.theme"]), "light\n")
    }

    func testAKilledSyncIsInterruptedAndTheNextOneConverges() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try enable(first)
        try enable(second)
        // While sync is off, changes stay local; turning it on again exports them all in one go.
        try succeed(first, ["sync", "disable"])
        let accounts = scratch.appendingPathComponent("accounts.txt")
        try write(
            (0..<200).map { "otpauth://totp/Site\($0):user\($0)?secret=\(Self.secret)&issuer=Site\($0)\n" }.joined(),
            to: accounts)
        try succeed(first, ["import", "--format", "otpauth", accounts.path])
        XCTAssertTrue(try enable(first).contains("exported 200 changes"))

        let sync = try start(second, ["sync", "now"])
        let events = second.home.appendingPathComponent("sync-events.log")
        XCTAssertTrue(
            eventually(every: 1_000) { Self.log(events).contains("\"processID\":\(sync.pid)") },
            "the sync never started")
        kill(sync.pid, SIGSTOP)
        XCTAssertFalse(
            Self.log(events).contains("\"phase\":\"export\",\"processID\":\(sync.pid)"),
            "the sync finished before it could be stopped")
        let running = try status(second, offline: true)
        XCTAssertEqual(running.json["summary"] as? String, "in progress")
        XCTAssertEqual(running.status, 0)

        kill(sync.pid, SIGKILL)
        XCTAssertNotNil(sync.waitForExit(timeout: 60))
        let interrupted = try status(second, offline: true)
        XCTAssertEqual(interrupted.json["summary"] as? String, "error")
        XCTAssertEqual(interrupted.status, 4)
        XCTAssertTrue((interrupted.json["message"] as? String)?.contains("interrupted") ?? false, "\(interrupted.json)")

        try succeed(second, ["sync", "now"])
        XCTAssertEqual(try labels(second).count, 200)
        XCTAssertEqual(try labels(second), try labels(first))
        XCTAssertEqual(try status(second).json["summary"] as? String, "succeeded")
    }

    private static func log(_ url: URL) -> String {
        (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }
}
