import Foundation
import XCTest

/// `authcat sync compact`, and how `sync now` and `sync status` say when it is due.
final class SyncCompactTests: SyncTestCase {
    /// The remote files of the one device that wrote batches or snapshots so far, by kind.
    private func objects() -> (batches: [String], snapshots: [String]) {
        let files = remoteFiles()
        return (files.filter { $0.contains("/b-") }, files.filter { $0.contains("/s-") })
    }

    /// Adds `count` accounts, each exported by its own `sync now`, so each makes one batch.
    private func addSynced(_ device: AuthCatRunner, _ count: Int, from start: Int = 0) throws {
        for index in start..<(start + count) {
            try add(device, "user\(index)", issuer: "Site\(index)")
            try succeed(device, ["sync", "now"])
        }
    }

    func testCompactReplacesTheBatchesWithOneSnapshotAndANewDeviceConverges() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try enable(first)
        try addSynced(first, 3)
        // One batch per change, and the one with which enable announced the device's name.
        let batches = objects().batches.count
        XCTAssertEqual(batches, 4)
        XCTAssertEqual(objects().snapshots, [], "ordinary syncs write no snapshot")
        XCTAssertEqual(try status(first, offline: true).json["batches_since_snapshot"] as? Int, batches)

        let output = try succeed(first, ["sync", "compact"])
        XCTAssertTrue(output.contains("compacted: wrote one snapshot, removed \(batches) older objects"), output)
        XCTAssertEqual(objects().batches, [], "the covered batches are gone")
        XCTAssertEqual(objects().snapshots.count, 1)
        XCTAssertEqual(try status(first, offline: true).json["batches_since_snapshot"] as? Int, 0)

        try enable(second)
        XCTAssertEqual(try labels(second), try labels(first))
        XCTAssertEqual(try labels(second).count, 3)
    }

    func testCompactWithNothingNewWritesNothingAndPrintsJSON() throws {
        let device = try makeDevice()
        try enable(device)
        try addSynced(device, 1)
        let first = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(try succeed(device, ["sync", "compact", "--json"]).utf8))
                as? [String: Any])
        XCTAssertEqual(first["snapshot_written"] as? Bool, true)
        XCTAssertEqual(first["batches_since_snapshot"] as? Int, 0)
        let files = remoteFiles()

        let again = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(try succeed(device, ["sync", "compact", "--json"]).utf8))
                as? [String: Any])
        XCTAssertEqual(again["snapshot_written"] as? Bool, false)
        XCTAssertEqual(again["objects_written"] as? Int, 0)
        XCTAssertEqual(remoteFiles(), files)
        XCTAssertEqual(
            try succeed(device, ["sync", "compact"]),
            "imported 0 changes, exported 0 changes\nnothing to compact: no batch since the last snapshot\n")
    }

    func testCompactNeedsSyncOn() throws {
        let device = try makeDevice()
        try add(device, "alice")
        let result = try device.run(["sync", "compact"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("authcat: sync is off"), result.stderr)
        XCTAssertEqual(result.stdout, "")
    }

    /// Holds the lock a running `sync watch` holds, so changes start no
    /// background push (the explicit `sync now`s export them, in half the processes).
    private func actAsWatch(_ device: AuthCatRunner) throws -> Int32 {
        let fd = open(device.home.appendingPathComponent("sync-watch.lock").path, O_CREAT | O_RDWR, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(flock(fd, LOCK_SH), 0)
        return fd
    }

    func testSyncNowHintsStatusShowsAndAnIdleWatchCompactsWhenDue() throws {
        let device = try makeDevice()
        try enable(device)
        let watchLock = try actAsWatch(device)
        // enable's batch (the device's name) and 62 changes: one short of due.
        try addSynced(device, 62)
        XCTAssertEqual(try status(device, offline: true).json["compaction_due"] as? Bool, false)
        try add(device, "last")
        let result = try device.run(["sync", "now"])
        close(watchLock)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("authcat: 64 batches since this device's last snapshot; run 'authcat sync compact'"),
            result.stderr)
        XCTAssertEqual(try status(device, offline: true).json["compaction_due"] as? Bool, true)
        let text = try device.run(["sync", "status", "--offline"]).stdout
        XCTAssertTrue(text.contains("batches since snapshot: 64 (compaction due)"), text)
        XCTAssertTrue(text.contains("\n  run: authcat sync compact\n"), "the command line words the step: \(text)")
        XCTAssertEqual(objects().snapshots, [], "due, but an ordinary sync still writes no snapshot")

        // Idle for one interval, the watch compacts on its own.
        let watch = try start(device, ["sync", "watch", "--interval", "1"])
        XCTAssertTrue(
            eventually { objects().snapshots.count == 1 && objects().batches.isEmpty },
            "the idle watch compacted: \(remoteFiles()) \(watch.stderr)")
        XCTAssertTrue(
            eventually { watch.stdout.contains("compacted: wrote one snapshot, removed 64 older objects") },
            watch.stdout)
        kill(watch.pid, SIGTERM)
        XCTAssertEqual(watch.waitForExit(timeout: 60), 0, watch.stderr)
        XCTAssertEqual(try status(device, offline: true).json["batches_since_snapshot"] as? Int, 0)
        let quiet = try device.run(["sync", "now"])
        XCTAssertFalse(quiet.stderr.contains("sync compact"), "no hint once compacted: \(quiet.stderr)")
    }
}
