import Foundation
import XCTest

/// `authcat sync disable`: here only, everywhere, or deleting the remote data.
class SyncDisableTests: SyncTestCase {
    func testChangesMadeWhileOffAreExportedWhenTurnedOnAgain() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try enable(first)
        try enable(second)
        XCTAssertEqual(try succeed(first, ["sync", "disable"]), "sync is off on this device; local data is kept\n")
        let before = remoteFiles()
        try add(first, "alice")
        XCTAssertEqual(runningPushes(of: first), [], "no push was started")
        XCTAssertEqual(remoteFiles(), before, "nothing leaves the device while sync is off")

        // Resuming asks for nothing: no passphrase source at all.
        let resumed = try enable(first, environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": ""])
        XCTAssertTrue(resumed.contains("sync is on again"), resumed)
        XCTAssertTrue(resumed.contains("exported 1 change"), resumed)
        try succeed(second, ["sync", "now"])
        XCTAssertEqual(try labels(second), ["Example:alice"])
    }

    func testDisableEverywhereStopsTheOtherDevice() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try add(second, "bob")
        try enable(first)
        try enable(second)
        XCTAssertTrue(try succeed(first, ["sync", "disable", "--everywhere"]).contains("every device"))

        let sync = try second.run(["sync", "now"])
        XCTAssertEqual(sync.status, 1)
        XCTAssertTrue(sync.stderr.contains("turned off on every device"), sync.stderr)
        let (exitStatus, json) = try status(second)
        XCTAssertEqual(exitStatus, 0)
        XCTAssertEqual(json["summary"] as? String, "off")
        XCTAssertEqual(json["disabled_everywhere"] as? Bool, true)
        XCTAssertTrue((json["message"] as? String)?.contains("another device") ?? false)
        XCTAssertEqual(try labels(second), ["Example:bob"], "local data is kept")
    }

    func testDeleteRemoteWithoutATerminalNeedsYes() throws {
        let device = try makeDevice()
        try add(device, "alice")
        try enable(device)
        let before = remoteFiles()
        let result = try device.run(["sync", "disable", "--delete-remote"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("--yes"), result.stderr)
        XCTAssertEqual(remoteFiles(), before)
        XCTAssertEqual(try status(device).json["summary"] as? String, "succeeded", "sync is still on")
    }

    func testDeleteRemoteLeavesOnlyTheMarkerAndKeepsLocalData() throws {
        let device = try makeDevice()
        try add(device, "alice")
        try enable(device)
        XCTAssertGreaterThan(remoteFiles().count, 1)
        let output = try succeed(device, ["sync", "disable", "--delete-remote", "--yes"])
        XCTAssertTrue(output.contains("was deleted"), output)
        XCTAssertEqual(remoteFiles().count, 1, "only the deletion marker: \(remoteFiles())")
        XCTAssertEqual(try labels(device), ["Example:alice"])

        // The next enable anywhere starts a new remote vault.
        XCTAssertTrue(try enable(device).contains("created a new remote vault"))
    }

    func testDisableEverywhereWithTheRemoteGoneStillTurnsSyncOffHere() throws {
        let device = try makeDevice()
        try enable(device)
        try FileManager.default.removeItem(at: remoteFolder)
        let result = try device.run(["sync", "disable", "--everywhere"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.stderr.contains("sync is off on this device, but the remote could not be updated"), result.stderr)
        XCTAssertEqual(try status(device).json["summary"] as? String, "off")
    }

    func testDeleteRemoteAfterSyncWasTurnedOffHereStillDeletesIt() throws {
        let (device, other) = (try makeDevice(), try makeDevice())
        try add(device, "alice")
        try enable(device)
        try enable(other)
        try succeed(device, ["sync", "disable"])
        XCTAssertGreaterThan(remoteFiles().count, 1)

        let output = try succeed(device, ["sync", "disable", "--delete-remote", "--yes"])
        XCTAssertTrue(output.contains("was deleted"), output)
        XCTAssertEqual(remoteFiles().count, 1, "only the deletion marker: \(remoteFiles())")
        XCTAssertEqual(try labels(device), ["Example:alice"])
        XCTAssertEqual(try status(device, offline: true).json["summary"] as? String, "off", "still off here")
        let stopped = try other.run(["sync", "now"])
        XCTAssertEqual(stopped.status, 1)
        XCTAssertEqual(try status(other, offline: true).json["summary"] as? String, "remote deleted")
        XCTAssertEqual(try labels(other), ["Example:alice"])
    }

    func testDisableEverywhereAfterSyncWasTurnedOffHereStillStopsTheOthers() throws {
        let (device, other) = (try makeDevice(), try makeDevice())
        try enable(device)
        try enable(other)
        try succeed(device, ["sync", "disable"])
        XCTAssertEqual(
            try succeed(device, ["sync", "disable", "--everywhere"]),
            "sync is off on every device; local data is kept\n")
        _ = try other.run(["sync", "now"])
        let json = try status(other, offline: true).json
        XCTAssertEqual(json["summary"] as? String, "off")
        XCTAssertEqual(json["disabled_everywhere"] as? Bool, true)
    }

    func testDeleteRemoteWhenSyncWasNeverSetUpIsAClearError() throws {
        let device = try makeDevice()
        for setUp in [false, true] {
            if setUp { try add(device, "alice") }
            let result = try device.run(["sync", "disable", "--delete-remote", "--yes"])
            XCTAssertEqual(result.status, 1)
            XCTAssertEqual(
                result.stderr,
                "authcat: sync was never set up for this vault, so there is no remote to turn off or delete\n")
        }
    }

    func testDisableWhenOffSaysSo() throws {
        let device = try makeDevice()
        XCTAssertEqual(try succeed(device, ["sync", "disable"]), "sync is already off\n")
    }
}
