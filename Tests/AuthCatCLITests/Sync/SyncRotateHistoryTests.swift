import AuthCatTestSupport
import Foundation
import XCTest

/// `authcat history` after `authcat sync rotate --revoke`: the device that
/// rotated shows the rotation and each device revoked (name and id); the
/// others show the rotation once they adopt the new key, from that device.
final class SyncRotateHistoryTests: SyncTestCase {
    private func thisDevice(_ device: AuthCatRunner) throws -> (id: String, name: String) {
        let devices = try XCTUnwrap(try status(device, offline: true).json["devices_seen"] as? [[String: Any]])
        let entry = try XCTUnwrap(devices.first { $0["this_device"] as? Bool == true })
        return (try XCTUnwrap(entry["id"] as? String), try XCTUnwrap(entry["name"] as? String))
    }

    /// `history --json`: the transactions, newest first.
    private func history(_ device: AuthCatRunner) throws -> [[String: Any]] {
        let output = try succeed(device, ["history", "--json", "--limit", "0"])
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
    }

    /// The transactions that rotated the sync key.
    private func rotations(_ device: AuthCatRunner) throws -> [[String: Any]] {
        try history(device).filter { transaction in
            (transaction["changes"] as? [[String: Any]] ?? []).contains { $0["entity"] as? String == "sync_key" }
        }
    }

    private func changes(_ transaction: [String: Any]) -> [[String: String?]] {
        (transaction["changes"] as? [[String: Any]] ?? []).map { change in
            ["entity", "kind", "record_id", "label"].reduce(into: [:]) { $0[$1] = change[$1] as? String }
        }
    }

    func testHistoryShowsTheRotationAndTheRevokedDeviceHereAndTheRotationOnTheOthers() throws {
        let (first, second, third) = (try makeDevice(), try makeDevice(), try makeDevice())
        try add(first, "alice")
        try enable(first, ["--device-name", "desk"])
        try enable(second, ["--device-name", "phone"])
        try enable(third, ["--device-name", "lost laptop"])
        try add(third, "carol")
        XCTAssertTrue(eventually { runningPushes(of: third).isEmpty })
        for device in [third, first, second] { try succeed(device, ["sync", "now"]) }
        let (firstID, thirdID) = (try thisDevice(first).id, try thisDevice(third).id)

        try succeed(first, ["sync", "rotate", "--revoke", "lost laptop", "--yes"])

        let here = try rotations(first)
        XCTAssertEqual(here.count, 1, "one rotation, one transaction: \(here)")
        XCTAssertEqual(here.first?["author"] as? String, "cli")
        XCTAssertEqual(
            changes(try XCTUnwrap(here.first)),
            [
                ["entity": "sync_key", "kind": "rotate", "record_id": "1", "label": nil],
                ["entity": "device", "kind": "revoke", "record_id": thirdID, "label": "lost laptop"],
            ])
        let text = try succeed(first, ["history"])
        XCTAssertTrue(text.contains("sync key (key epoch 1)"), text)
        XCTAssertTrue(text.contains("revoke") && text.contains("device lost laptop (\(thirdID))"), text)

        XCTAssertTrue(try rotations(second).isEmpty, "not adopted yet")
        try succeed(second, ["sync", "now"])
        let there = try rotations(second)
        XCTAssertEqual(there.count, 1, "\(there)")
        XCTAssertEqual(there.first?["author"] as? String, "sync")
        let from = try XCTUnwrap(there.first?["device"] as? [String: Any])
        XCTAssertEqual(from["id"] as? String, firstID)
        XCTAssertEqual(from["name"] as? String, "desk")
        XCTAssertEqual(
            changes(try XCTUnwrap(there.first)).first,
            ["entity": "sync_key", "kind": "rotate", "record_id": "1", "label": nil])
        XCTAssertTrue(try succeed(second, ["history"]).contains("desk"))
        try succeed(second, ["sync", "now"])
        XCTAssertEqual(try rotations(second).count, 1, "a later sync records nothing again")
    }
}
