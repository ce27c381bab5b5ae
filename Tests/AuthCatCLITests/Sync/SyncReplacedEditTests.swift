import AuthCatTestSupport
import Foundation
import XCTest

/// An offline edit that a newer change of the same field from another device
/// replaces: `sync now` says so, and history keeps both.
final class SyncReplacedEditTests: SyncTestCase {
    /// Two devices synced on the remote: `laptop2`, which added `GitHub:alice`, and `desk`.
    private func twoDevices() throws -> (laptop: AuthCatRunner, desk: AuthCatRunner) {
        let (laptop, desk) = (try makeDevice(), try makeDevice())
        try add(laptop, "alice", issuer: "GitHub")
        try enable(laptop, ["--device-name", "laptop2"])
        try enable(desk, ["--device-name", "desk"])
        XCTAssertEqual(try labels(desk), ["GitHub:alice"])
        return (laptop, desk)
    }

    /// A change made with no sync after it: its background push cannot start.
    private func editOffline(_ device: AuthCatRunner, _ arguments: [String]) throws {
        let result = try device.run(
            ["edit", "GitHub:alice"] + arguments,
            detachedProgram: device.root.appendingPathComponent("no-such-program").path)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("cannot start the background sync"), result.stderr)
    }

    private func accounts(_ device: AuthCatRunner) throws -> [[String: Any]] {
        let output = try succeed(device, ["list", "--json"])
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
    }

    /// `history --json` of one account, newest first, as author (with the device name for sync) and fields.
    private func history(_ device: AuthCatRunner, _ account: String) throws -> [String] {
        let output = try succeed(device, ["history", account, "--json", "--limit", "0"])
        let transactions = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        return transactions.map { transaction in
            let author = transaction["author"] as? String ?? "-"
            let device = (transaction["device"] as? [String: Any])?["name"] as? String ?? "-"
            let fields = (transaction["changes"] as? [[String: Any]] ?? []).flatMap { $0["fields"] as? [String] ?? [] }
            return "\(author == "sync" ? "sync from \(device)" : author): \(fields.joined(separator: ","))"
        }
    }

    func testAnOfflineEditReplacedByANewerOneIsReportedAndHistoryKeepsBoth() throws {
        let (laptop, desk) = try twoDevices()
        try editOffline(desk, ["--name", "alice-desk"])
        try succeed(laptop, ["edit", "GitHub:alice", "--name", "alice-laptop"])
        try succeed(laptop, ["sync", "now"])

        let output = try succeed(desk, ["sync", "now"])
        XCTAssertEqual(
            output.split(separator: "\n").filter { $0.contains("offline") },
            [
                "GitHub:alice-laptop: your offline change of name was replaced by a newer one from laptop2 (history keeps both)"
            ],
            output)
        XCTAssertEqual(try labels(desk), ["GitHub:alice-laptop"])
        let transactions = try history(desk, "GitHub:alice-laptop")
        XCTAssertEqual(Array(transactions.prefix(2)), ["sync from laptop2: name", "cli: name"], "\(transactions)")

        let again = try succeed(desk, ["sync", "now"])
        XCTAssertFalse(again.contains("offline"), "reported once: \(again)")
        try succeed(laptop, ["sync", "now"])
        XCTAssertEqual(try labels(laptop), ["GitHub:alice-laptop"], "both devices keep the winner")
    }

    func testTheJSONReportNamesTheAccountFieldAndDeviceButNoValue() throws {
        let (laptop, desk) = try twoDevices()
        try editOffline(desk, ["--note", "desk-note-text"])
        try succeed(laptop, ["edit", "GitHub:alice", "--note", "laptop-note-text"])
        try succeed(laptop, ["sync", "now"])
        let seen = try XCTUnwrap(try status(laptop, offline: true).json["devices_seen"] as? [[String: Any]])
        let laptopID = try XCTUnwrap(seen.first { $0["this_device"] as? Bool == true }?["id"] as? String)

        let output = try succeed(desk, ["sync", "now", "--json"])
        XCTAssertFalse(output.contains("note-text"), output)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let account = try XCTUnwrap(try accounts(desk).first)
        let shown = try succeed(desk, ["show", "GitHub:alice", "--json"])
        let replaced = try XCTUnwrap(report["replaced_edits"] as? [[String: String]], output)
        XCTAssertEqual(
            replaced,
            [
                [
                    "account": try XCTUnwrap(account["id"] as? String), "issuer": "GitHub", "name": "alice",
                    "field": "note", "device": laptopID, "device_name": "laptop2",
                ]
            ])
        let details = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
        XCTAssertEqual(details["note"] as? String, "laptop-note-text", "the newer note won")
    }

    func testAnOfflineEditOfAnotherFieldIsNotReportedAndBothEditsSurvive() throws {
        // The desk adds the account this time: every field's clock is its own, exported before the edit.
        let (desk, laptop) = (try makeDevice(), try makeDevice())
        try add(desk, "alice", issuer: "GitHub")
        try enable(desk, ["--device-name", "desk"])
        try enable(laptop, ["--device-name", "laptop2"])
        try editOffline(desk, ["--tag", "work"])
        try succeed(laptop, ["edit", "GitHub:alice", "--name", "alice-laptop"])
        try succeed(laptop, ["sync", "now"])

        let output = try succeed(desk, ["sync", "now", "--json"])
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        XCTAssertEqual((report["replaced_edits"] as? [Any])?.count, 0, output)
        try succeed(laptop, ["sync", "now"])
        for device in [desk, laptop] {
            let account = try XCTUnwrap(try accounts(device).first)
            XCTAssertEqual(account["name"] as? String, "alice-laptop")
            XCTAssertEqual(account["tags"] as? [String], ["work"])
        }
    }
}
