import Foundation
import XCTest

/// The push that follows every change when sync is on.
final class SyncBackgroundTests: SyncTestCase {
    private func pendingLocalChanges(_ device: AuthCatRunner) throws -> Int? {
        try status(device, offline: true).json["pending_local_changes"] as? Int
    }

    func testAChangeIsPushedInTheBackgroundWithoutDelayingTheCommand() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try enable(first)
        try enable(second)
        let before = remoteFiles()

        // While the test holds the run lock no push can run; the command still returns.
        let syncLock = open(
            first.home.appendingPathComponent("sync-run.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        XCTAssertEqual(flock(syncLock, LOCK_EX), 0)
        let result = try first.run(["add", "alice", "--issuer", "GitHub"], stdin: Data("\(Self.secret)\n".utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "", "the push is silent")
        XCTAssertEqual(remoteFiles(), before, "the command returned before its push could run")
        XCTAssertEqual(runningPushes(of: first).count, 1, "its push waits for the lock")
        close(syncLock)
        XCTAssertTrue(eventually { remoteFiles().count > before.count }, "the change reached the remote")
        XCTAssertTrue(try eventually { try pendingLocalChanges(first) == 0 })

        try succeed(second, ["sync", "now"])
        XCTAssertEqual(try labels(second), ["GitHub:alice"])
    }

    func testManyChangesInARowAllArrive() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try enable(first)
        try enable(second)
        for index in 0..<8 { try add(first, "user\(index)") }
        XCTAssertTrue(try eventually { try pendingLocalChanges(first) == 0 }, "every change was pushed")
        try succeed(second, ["sync", "now"])
        XCTAssertEqual(try labels(second).count, 8)
    }

    func testCodeNeverSyncs() throws {
        let device = try makeDevice()
        try add(device, "counter", ["--type", "hotp"])
        try enable(device)
        let before = remoteFiles()
        try succeed(device, ["code", "counter"])
        XCTAssertEqual(runningPushes(of: device), [], "code started no push")
        XCTAssertEqual(remoteFiles(), before, "the advanced counter waits for the next sync")
        XCTAssertEqual(try pendingLocalChanges(device), 1)
    }

    /// A push that finds no key (the keyring's entry expired between the
    /// change and the push, no passphrase file) leaves the change pending for
    /// the next sync: never an error in sync status.
    func testAPushWithoutTheKeyLeavesTheChangePending() throws {
        let device = try makeDevice()
        try add(device, "counter", ["--type", "hotp"])
        let withFile = ["AUTHCAT_PASSPHRASE_FILE": passphraseFile.path]
        try succeed(device, ["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": passphraseFile.path])
        try enable(device, environment: withFile)
        try succeed(device, ["code", "counter"], environment: withFile)
        XCTAssertEqual(try pendingLocalChanges(device), 1, "code never syncs: the counter waits")

        try succeed(device, ["sync", "now", "--background", "--home", device.home.path])
        let (exitStatus, json) = try status(device, offline: true)
        XCTAssertEqual(exitStatus, 0, "a change waiting for the key is no error: \(json)")
        XCTAssertEqual(json["pending_local_changes"] as? Int, 1)

        try succeed(device, ["sync", "now"], environment: withFile)
        XCTAssertEqual(try pendingLocalChanges(device), 0, "the next sync with the key takes it out")
    }

    /// A push that cannot even start is a warning where the user sees it, on the
    /// command that made the change, which still succeeds.
    func testAPushThatCannotStartIsAWarningWithWhatToDo() throws {
        let device = try makeDevice()
        try enable(device)
        let result = try device.run(
            ["add", "alice", "--issuer", "GitHub"], stdin: Data("\(Self.secret)\n".utf8),
            detachedProgram: device.root.appendingPathComponent("no-such-program").path)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("authcat: warning: cannot start the background sync: "), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("; run: authcat sync now\n"), result.stderr)
        XCTAssertEqual(try labels(device), ["GitHub:alice"])
    }

    func testAFailedPushIsRecordedAndTheCommandStillSucceeds() throws {
        let device = try makeDevice()
        try enable(device)
        try FileManager.default.removeItem(at: remoteFolder)

        try add(device, "alice")
        XCTAssertTrue(
            try eventually { try status(device, offline: true).status == 6 }, "the failure reached the monitor")
        let (exitStatus, json) = try status(device, offline: true)
        XCTAssertEqual(exitStatus, 6)
        XCTAssertEqual(json["summary"] as? String, "account not available")
        XCTAssertEqual(json["pending_local_changes"] as? Int, 1)
        XCTAssertEqual(try labels(device), ["Example:alice"])
    }

    /// A push that cannot open the run lock never ran; the monitor says so
    /// rather than keep showing the last success.
    func testAPushThatCannotOpenTheRunLockIsRecorded() throws {
        let device = try makeDevice()
        try enable(device)
        let runLock = device.home.appendingPathComponent("sync-run.lock")
        try? FileManager.default.removeItem(at: runLock)
        try FileManager.default.createDirectory(at: runLock, withIntermediateDirectories: false)

        try add(device, "alice")
        XCTAssertTrue(
            try eventually { try status(device, offline: true).json["summary"] as? String == "error" },
            "the failure reached the monitor")
        let (exitStatus, json) = try status(device, offline: true)
        XCTAssertNotEqual(exitStatus, 0)
        XCTAssertTrue((json["message"] as? String ?? "").contains("sync-run.lock"), "\(json)")
        XCTAssertEqual(json["pending_local_changes"] as? Int, 1, "nothing went out")
    }

    func testNoPushWhenSyncIsOff() throws {
        let device = try makeDevice()
        try enable(device)
        try succeed(device, ["sync", "disable"])
        let before = remoteFiles()
        try add(device, "alice")
        XCTAssertEqual(runningPushes(of: device), [], "no push was started")
        XCTAssertEqual(remoteFiles(), before)
    }
}
