import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import XCTest

@testable import AuthCatSync

/// The JSON form of a status (the text form is the command line's: SyncStatusTextTests).
final class SyncStatusRenderingTests: XCTestCase {
    private let time = Date(timeIntervalSince1970: 1_700_000_000)

    private var failing: SyncStatus { .sampleNoNetwork(at: time) }

    func testJSONHasEveryKeyAndTheExitCode() throws {
        let text = String(decoding: try JSONEncoder().encode(failing), as: UTF8.self)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(object["summary"] as? String, "no network")
        XCTAssertEqual(object["exit_code"] as? Int, 5)
        XCTAssertEqual(object["healthy"] as? Bool, false)
        XCTAssertEqual(object["pending_local_changes"] as? Int, 2)
        XCTAssertEqual(object["batches_since_snapshot"] as? Int, 3)
        XCTAssertEqual(object["compaction_due"] as? Bool, false)
        let rejected = try XCTUnwrap(object["rejected_objects"] as? [[String: Any]])
        XCTAssertEqual(rejected.map { $0["name"] as? String }, ["authcat-v/d/b-0000000002"])
        XCTAssertEqual(rejected.first?["kind"] as? String, "rejected")
        XCTAssertEqual(
            Set(object.keys),
            [
                "summary", "healthy", "exit_code", "message", "enabled", "remote", "remote_kind",
                "create_only_enforced",
                "phases", "last_successful_sync",
                "pending_local_changes", "batches_since_snapshot", "compaction_due", "rejected_objects",
                "standing_issues", "state_problem",
                "devices_seen", "remote_deleted", "vault_mismatch", "disabled_everywhere", "revoked", "probe",
            ])
        let phases = try XCTUnwrap(object["phases"] as? [String: [String: Any]])
        XCTAssertEqual(phases["import"]?["state"] as? String, "failed")
        XCTAssertEqual((phases["import"]?["error"] as? [String: Any])?["category"] as? String, "unreachable")
        XCTAssertTrue(phases["export"]?["error"] is NSNull)
        XCTAssertEqual((object["probe"] as? [String: Any])?["reachable"] as? Bool, false)
        XCTAssertEqual(
            (object["devices_seen"] as? [[String: Any]])?.map { $0["name"] as? String }, ["laptop", "desktop"])
    }

    func testJSONOfSyncOffHasNulls() throws {
        let status = SyncStatus.fold(events: [], local: .off, probe: nil, now: time)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: try JSONEncoder().encode(status)) as? [String: Any])
        XCTAssertEqual(object["summary"] as? String, "off")
        XCTAssertTrue(object["remote"] is NSNull)
        XCTAssertTrue(object["probe"] is NSNull)
        XCTAssertTrue(object["last_successful_sync"] is NSNull)
        XCTAssertTrue(object["batches_since_snapshot"] is NSNull)
    }
}
