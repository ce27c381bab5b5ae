import Foundation
import XCTest

/// `authcat sync watch`: the real-time loop.
class SyncWatchTests: SyncTestCase {
    /// Starts `sync watch` and waits until its first sync finished.
    private func startWatch(_ device: AuthCatRunner, interval: Int = 60) throws -> RunningAuthCat {
        let watch = try start(device, ["sync", "watch", "--interval", String(interval)])
        let events = device.home.appendingPathComponent("sync-events.log")
        let ready = eventually {
            ((try? String(contentsOf: events, encoding: .utf8)) ?? "")
                .contains("{\"kind\":\"succeeded\",\"phase\":\"export\",\"processID\":\(watch.pid)")
        }
        XCTAssertTrue(ready, "the watch never synced: \(watch.stderr)")
        XCTAssertTrue(
            watch.stdout.contains(
                " watching \(remoteURL): local changes go out within a second, other devices' changes are checked every \(interval == 1 ? "second" : "\(interval) seconds"); Ctrl-C stops\n"
            ),
            "it says that it started: \(watch.stdout)")
        return watch
    }

    private func pendingLocalChanges(_ device: AuthCatRunner) throws -> Int? {
        try status(device, offline: true).json["pending_local_changes"] as? Int
    }

    /// Without waiting for its next check: its interval is ten minutes.
    func testALocalChangeIsExportedByTheWatchAtOnce() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try enable(first)
        try enable(second)
        let watch = try startWatch(first, interval: 600)

        try add(first, "alice")
        XCTAssertTrue(try eventually { try pendingLocalChanges(first) == 0 }, "the watch exported the change")
        XCTAssertTrue(
            eventually { watch.stdout.contains("exported 1 change") },
            "the watch, not a background push, exported it: \(watch.stdout)")

        kill(watch.pid, SIGTERM)
        XCTAssertEqual(watch.waitForExit(timeout: 60), 0, "SIGTERM stops it cleanly: \(watch.stderr)")
        try succeed(second, ["sync", "now"])
        XCTAssertEqual(try labels(second), ["Example:alice"])
    }

    func testOtherDevicesChangesArriveEveryInterval() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try enable(first)
        try enable(second)
        let watch = try startWatch(first, interval: 1)
        try add(second, "bob")
        XCTAssertTrue(
            try eventually { try labels(first) == ["Example:bob"] }, "imported without a sync now")
        XCTAssertTrue(eventually { watch.stdout.contains("imported 1 change") }, watch.stdout)
        kill(watch.pid, SIGINT)
        XCTAssertEqual(watch.waitForExit(timeout: 60), 0, "SIGINT stops it cleanly: \(watch.stderr)")
    }

    func testDisablingSyncFromAnotherProcessStopsTheWatchAtOnce() throws {
        let device = try makeDevice()
        try enable(device)
        let watch = try startWatch(device)
        try succeed(device, ["sync", "disable"])
        XCTAssertEqual(watch.waitForExit(timeout: 60), 0, "the watch stops when sync is turned off")
        XCTAssertTrue(watch.stderr.contains("sync was turned off"), watch.stderr)

        let before = remoteFiles()
        try add(device, "alice")
        XCTAssertEqual(runningPushes(of: device), [], "no push was started")
        XCTAssertEqual(remoteFiles(), before, "nothing exported after the toggle")
    }

    /// Run in process, as most tests run commands, the watch leaves SIGINT and
    /// SIGTERM as it found them: after it, Ctrl-C stops the process again.
    func testAWatchRunInProcessRestoresTheSignalsItCaught() throws {
        let device = try makeDevice()
        try enable(device)
        let before = Self.signalActions()
        let events = device.home.appendingPathComponent("sync-events.log")
        let turnOff = DispatchGroup()
        // `sync enable` ran in this process too: the watch's sync is the next one.
        let synced = "{\"kind\":\"succeeded\",\"phase\":\"export\",\"processID\":\(getpid())"
        let syncs: @Sendable () -> Int = {
            ((try? String(contentsOf: events, encoding: .utf8)) ?? "").components(separatedBy: synced).count
        }
        let syncsBefore = syncs()
        DispatchQueue.global().async(group: turnOff) {
            // Once the watch synced here, another process turns sync off, which ends it; a watch
            // that never synced ends at the deadline and fails the count of syncs below.
            let deadline = Date().addingTimeInterval(20)
            while syncs() == syncsBefore, Date() < deadline {
                usleep(20_000)
            }
            _ = try? device.runAsProcess(["sync", "disable"])
        }
        let watch = try device.run(["sync", "watch"], timeout: 30)
        XCTAssertEqual(turnOff.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(watch.status, 0, watch.stderr)
        XCTAssertTrue(watch.stderr.contains("sync was turned off"), watch.stderr)
        XCTAssertGreaterThan(syncs(), syncsBefore, "the watch synced before it was turned off")
        XCTAssertEqual(Self.signalActions(), before, "SIGINT and SIGTERM do what they did before the watch")
    }

    /// What SIGINT and SIGTERM do now: their handler (or SIG_DFL, SIG_IGN) and
    /// flags, but SA_RESTORER, which glibc adds to any action it sets.
    private static func signalActions() -> [String] {
        let saRestorer: Int32 = 0x0400_0000
        return [SIGINT, SIGTERM].map { number in
            var action = sigaction()
            sigaction(number, nil, &action)
            let handler = unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self)
            return "\(number): handler \(handler), flags \(action.sa_flags & ~saRestorer)"
        }
    }

    func testWatchNeedsSyncOnAndASaneInterval() throws {
        let device = try makeDevice()
        try add(device, "alice")
        let off = try device.run(["sync", "watch"])
        XCTAssertEqual(off.status, 1)
        XCTAssertTrue(off.stderr.contains("sync is off"), off.stderr)
        XCTAssertEqual(try device.run(["sync", "watch", "--interval", "0"]).status, 64)
    }
}
