import Foundation
import XCTest

/// `authcat sync status`: summaries and exit statuses seen from the command line.
final class SyncStatusCommandTests: SyncTestCase {
    func testOffWithoutAVaultOrWithoutSync() throws {
        let device = try makeDevice()
        let noVault = try device.run(["sync", "status"])
        XCTAssertEqual(noVault.status, 0)
        XCTAssertEqual(noVault.stdoutLines.first, "sync: off")
        try add(device, "alice")
        let (status, json) = try status(device)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(json["summary"] as? String, "off")
        XCTAssertEqual(json["enabled"] as? Bool, false)
        XCTAssertTrue(json["probe"] is NSNull, "no remote is contacted when sync is off")
    }

    func testSucceededShowsPhasesAndFacts() throws {
        let device = try makeDevice()
        try add(device, "alice")
        try enable(device)
        let result = try device.run(["sync", "status"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutLines.first, "sync: succeeded")
        XCTAssertTrue(result.stdoutLines.contains("remote: \(remoteURL)"), result.stdout)
        XCTAssertTrue(result.stdoutLines.contains { $0.hasPrefix("export: succeeded at ") }, result.stdout)
        XCTAssertTrue(result.stdoutLines.contains("pending local changes: 0"), result.stdout)
        let json = try status(device).json
        XCTAssertEqual((json["probe"] as? [String: Any])?["reachable"] as? Bool, true)
        XCTAssertFalse(json["last_successful_sync"] is NSNull)
    }

    /// A sync stopped inside a write transaction (Ctrl-Z) holds `sync.sqlite`'s
    /// write lock; a status bar polling `sync status` must still be answered.
    func testStatusAnswersWhileAnotherProcessHoldsTheSyncStateWriteLock() throws {
        let device = try makeDevice()
        try enable(device)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = [
            "-c",
            """
            import sqlite3, sys
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            connection.execute("BEGIN IMMEDIATE")
            print("locked", flush=True)
            sys.stdin.read()
            """,
            device.home.appendingPathComponent("sync.sqlite").path,
        ]
        let (input, output) = (Pipe(), Pipe())
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        defer {
            try? input.fileHandleForWriting.close()
            holder.waitUntilExit()
        }
        let said = String(decoding: output.fileHandleForReading.readData(ofLength: 7), as: UTF8.self)
        XCTAssertEqual(said, "locked\n", "the other process took the write lock")

        let (exitStatus, json) = try status(device, offline: true)
        XCTAssertEqual(exitStatus, 0)
        XCTAssertEqual(json["summary"] as? String, "succeeded")
    }

    func testVanishedFolderIsAccountNotAvailable() throws {
        let device = try makeDevice()
        try enable(device)
        try FileManager.default.removeItem(at: remoteFolder)
        XCTAssertEqual(try status(device, offline: true).json["summary"] as? String, "succeeded", "nothing failed yet")

        let (exitStatus, json) = try status(device)
        XCTAssertEqual(exitStatus, 6)
        XCTAssertEqual(json["summary"] as? String, "account not available")
        let text = try device.run(["sync", "status"])
        XCTAssertEqual(text.stdoutLines.first, "sync: account not available")
        XCTAssertTrue(text.stdout.contains("does not exist"), text.stdout)

        let sync = try device.run(["sync", "now"])
        XCTAssertEqual(sync.status, 1)
        XCTAssertEqual(try status(device, offline: true).status, 6, "the failed sync was recorded")
    }

    func testRemoteDeletedIsSeenByTheOtherDevice() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try add(first, "alice")
        try enable(first)
        try enable(second)
        try succeed(first, ["sync", "disable", "--delete-remote", "--yes"])

        let sync = try second.run(["sync", "now"])
        XCTAssertEqual(sync.status, 1)
        XCTAssertTrue(sync.stderr.contains("deleted by another device"), sync.stderr)
        let (exitStatus, json) = try status(second)
        XCTAssertEqual(exitStatus, 7)
        XCTAssertEqual(json["summary"] as? String, "remote deleted")
        XCTAssertEqual(json["enabled"] as? Bool, false)
        XCTAssertEqual(try labels(second), ["Example:alice"], "local data is kept")
        XCTAssertEqual(try status(first).json["summary"] as? String, "off")
        XCTAssertTrue(
            try second.run(["list"]).stderr.contains("remote deleted"), "every command warns until acknowledged")

        // Only the signed marker is left on the folder: no empty folders of the deleted vault.
        let left = try FileManager.default.subpathsOfDirectory(atPath: remoteFolder.path)
        XCTAssertEqual(left.count, 1, "\(left)")
        XCTAssertTrue(left.first?.hasSuffix(".deleted") == true, "\(left)")

        let acknowledged = try second.run(["sync", "disable"])
        XCTAssertEqual(acknowledged.status, 0, acknowledged.stderr)
        XCTAssertEqual(acknowledged.stdoutLines, ["acknowledged: sync stays off on this device; local data is kept"])
        let after = try status(second)
        XCTAssertEqual(after.status, 0)
        XCTAssertEqual(after.json["summary"] as? String, "off")
        let list = try second.run(["list"])
        XCTAssertEqual(list.stderr, "", "the warning ended")
        XCTAssertEqual(try labels(second), ["Example:alice"])
        XCTAssertEqual(try second.run(["sync", "disable"]).stdoutLines, ["sync is already off"], "acknowledged once")
    }

    func testVaultMismatchStopsSyncAndKeepsLocalData() throws {
        let (first, stranger) = (try makeDevice(), try makeDevice())
        try add(first, "alice")
        try enable(first)
        let elsewhere = scratch.appendingPathComponent("elsewhere")
        try enable(stranger, remote: "file://" + elsewhere.path)
        // The folder now holds another vault, as when the wrong share is mounted there.
        try FileManager.default.removeItem(at: remoteFolder)
        try FileManager.default.copyItem(at: elsewhere, to: remoteFolder)

        let sync = try first.run(["sync", "now"])
        XCTAssertEqual(sync.status, 1)
        XCTAssertTrue(sync.stderr.contains("different vault"), sync.stderr)
        let (exitStatus, json) = try status(first)
        XCTAssertEqual(exitStatus, 8)
        XCTAssertEqual(json["summary"] as? String, "vault mismatch")
        XCTAssertEqual(try labels(first), ["Example:alice"])
    }

    func testARejectedObjectIsReportedOnceAndStaysListedInStatus() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try enable(first)
        try enable(second)
        let read = Set(remoteFiles())
        try add(first, "alice")
        try succeed(first, ["sync", "now"])
        let batch = try XCTUnwrap(remoteFiles().first { !read.contains($0) && $0.contains("/b-") }, "alice's batch")
        let url = remoteFolder.appendingPathComponent(batch)
        var data = try Data(contentsOf: url)
        data[100] ^= 0xFF
        try data.write(to: url)

        let reported = try second.run(["sync", "now"])
        XCTAssertEqual(reported.status, 4, "the remote has a problem that stays until repaired")
        XCTAssertTrue(reported.stdout.contains("rejected \(batch):"), reported.stdout)
        let again = try second.run(["sync", "now"])
        XCTAssertEqual(again.status, 4)
        XCTAssertFalse(again.stdout.contains("rejected"), "reported once, not on every sync: \(again.stdout)")
        let json = try status(second, offline: true).json
        let rejected = try XCTUnwrap(json["rejected_objects"] as? [[String: Any]])
        XCTAssertEqual(rejected.map { $0["name"] as? String }, [batch])
        let text = try second.run(["sync", "status", "--offline"]).stdout
        XCTAssertTrue(text.contains("rejected objects: 1 (skipped while they stay the same)"), text)
        let short = try second.run(["sync", "status", "--short"])
        XCTAssertEqual(short.status, 4, "the short line exits as sync status does")
        XCTAssertEqual(short.stdoutLines, ["error: rejected"])
    }

    func testShortLineForABarFollowsTheStatusWithoutTheNetwork() throws {
        let device = try makeDevice()
        let off = try device.run(["sync", "status", "--short"])
        XCTAssertEqual(off.status, 0)
        XCTAssertEqual(off.stdoutLines, ["off"])

        try add(device, "alice")
        try enable(device)
        let synced = try device.run(["sync", "status", "--short"])
        XCTAssertEqual(synced.status, 0, synced.stderr)
        XCTAssertEqual(synced.stdoutLines.count, 1, synced.stdout)
        XCTAssertTrue(synced.stdout.hasPrefix("synced ") && synced.stdout.contains(" ago"), synced.stdout)

        // The remote vanishes: the full status finds out, the short line reads only what was recorded.
        try FileManager.default.removeItem(at: remoteFolder)
        XCTAssertEqual(try status(device).status, 6)
        let recorded = try device.run(["sync", "status", "--short"])
        XCTAssertEqual(
            recorded.stdoutLines.first?.hasPrefix("synced "), true, "no remote was contacted: \(recorded.stdout)")

        XCTAssertEqual(try device.run(["sync", "now"]).status, 1)
        let failed = try device.run(["sync", "status", "--short"])
        XCTAssertEqual(failed.status, 6)
        XCTAssertEqual(failed.stdoutLines, ["account not available"])
        XCTAssertLessThanOrEqual(failed.stdout.count, 41)
    }

    func testShortAndJSONTogetherAreAUsageError() throws {
        let result = try makeDevice().run(["sync", "status", "--short", "--json"])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("--short and --json"), result.stderr)
    }

    func testBadOptionIsAUsageError() throws {
        let device = try makeDevice()
        let result = try device.run(["sync", "status", "--bogus"])
        XCTAssertEqual(result.status, 64)
    }
}
