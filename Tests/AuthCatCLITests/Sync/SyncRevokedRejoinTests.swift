import AuthCatTestSupport
import Foundation
import XCTest

/// A device revoked by `sync rotate` that acknowledged it (`sync disable`)
/// and turns sync on again with the passphrase joins as a new device: its
/// old id stays revoked, and it gets the new key like any device that joins.
final class SyncRevokedRejoinTests: SyncTestCase {
    private func thisDeviceID(_ device: AuthCatRunner) throws -> String {
        let devices = try XCTUnwrap(try status(device, offline: true).json["devices_seen"] as? [[String: Any]])
        return try XCTUnwrap(devices.first { $0["this_device"] as? Bool == true }?["id"] as? String)
    }

    func testARevokedDeviceThatTurnsSyncOnAgainJoinsUnderANewID() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try add(first, "alice")
        try enable(first)
        try enable(second)
        // Something to export, so that the first device reads the second one's objects.
        try add(second, "bob")
        XCTAssertTrue(eventually { runningPushes(of: second).isEmpty })
        for device in [second, first] { try succeed(device, ["sync", "now"]) }
        let oldID = try thisDeviceID(second)
        try succeed(first, ["sync", "rotate", "--revoke", oldID, "--yes"])
        try add(first, "after")
        XCTAssertTrue(eventually { runningPushes(of: first).isEmpty })
        try succeed(first, ["sync", "now"])
        XCTAssertNotEqual(try second.run(["sync", "now"]).status, 0)
        XCTAssertEqual(try status(second, offline: true).status, 9)
        try succeed(second, ["sync", "disable"])

        let enabled = try second.run(["sync", "enable", "--remote", remoteURL])
        XCTAssertEqual(enabled.status, 0, enabled.stderr)
        let newID = try thisDeviceID(second)
        XCTAssertNotEqual(newID, oldID)
        try succeed(second, ["sync", "now"])
        XCTAssertEqual(try labels(second), ["Example:after", "Example:alice", "Example:bob"])
        XCTAssertEqual(try status(second, offline: true).status, 0)

        try succeed(first, ["sync", "now"])
        let output = try succeed(first, ["sync", "devices", "--json"])
        let devices = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        let revoked = Dictionary(
            uniqueKeysWithValues: devices.compactMap { device in
                (device["id"] as? String).map { ($0, device["revoked"] as? Bool) }
            })
        XCTAssertEqual(revoked[oldID], true, output)
        XCTAssertEqual(revoked[newID], false, output)
    }
}
