import Foundation
import XCTest

/// Sync problems seen from the command line (issue 8 §3–§5): each shows in
/// `sync status`'s summary and exit status until resolved, and the next
/// command prints one warning line on standard error, never on standard output.
final class SyncProblemTests: SyncTestCase {
    private func noticeExists(_ device: AuthCatRunner) -> Bool {
        FileManager.default.fileExists(atPath: device.home.appendingPathComponent("notice").path)
    }

    /// The warning lines a plain command printed.
    private func warnings(_ result: AuthCatResult) -> [String] {
        result.stderrLines.filter { $0.hasPrefix("authcat: warning: sync: ") }
    }

    func testAnEmptiedSyncStateIsAnErrorUntilForgottenNeverOff() throws {
        let device = try makeDevice()
        try add(device, "alice")
        try enable(device)
        let stateFile = device.home.appendingPathComponent("sync.sqlite")
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: stateFile.path + suffix) }
        try Data().write(to: stateFile)

        let (exitStatus, json) = try status(device)
        XCTAssertEqual(exitStatus, 4)
        XCTAssertEqual(json["summary"] as? String, "error")
        let message = try XCTUnwrap(json["message"] as? String)
        XCTAssertTrue(message.contains("authcat sync disable") && message.contains(remoteURL), message)
        XCTAssertEqual(json["state_problem"] as? String, message)

        for command in [["sync", "now"], ["sync", "enable", "--remote", remoteURL]] {
            let result = try device.run(command)
            XCTAssertEqual(result.status, 1, "\(command): \(result.stdout)")
            XCTAssertTrue(result.stderr.contains("authcat sync disable"), result.stderr)
        }
        XCTAssertEqual(remoteFiles().filter { $0.hasSuffix("b-0000000001") }.count, 1, "no second device joined")

        let list = try device.run(["list"])
        XCTAssertEqual(list.status, 0)
        XCTAssertEqual(warnings(list).count, 1, list.stderr)
        XCTAssertFalse(list.stdout.contains("warning"), "standard output stays clean for scripts")
        let statusText = try device.run(["sync", "status", "--offline"])
        XCTAssertEqual(warnings(statusText), [], "sync status says it itself, once")

        let forgotten = try succeed(device, ["sync", "disable"])
        XCTAssertTrue(forgotten.contains("set aside"), forgotten)
        XCTAssertEqual(try status(device).status, 0)
        XCTAssertTrue(try enable(device).contains("joined the remote vault"))
        XCTAssertEqual(warnings(try device.run(["list"])), [])
    }

    func testATamperedObjectIsAnErrorUntilPutBackAndTheNextCommandsWarn() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try enable(first)
        try enable(second)
        try add(second, "bob")
        // The second device's push (a full sync) ends before alice goes out, so
        // the tampered batch below is the first the second device sees.
        XCTAssertTrue(eventually { runningPushes(of: second).isEmpty })
        let read = Set(remoteFiles())
        try add(first, "alice")
        try succeed(first, ["sync", "now"])
        let batch = try XCTUnwrap(remoteFiles().first { !read.contains($0) && $0.contains("/b-") }, "alice's batch")
        try add(first, "carol")
        try succeed(first, ["sync", "now"])
        let url = remoteFolder.appendingPathComponent(batch)
        let original = try Data(contentsOf: url)
        var tampered = original
        tampered[100] ^= 0xFF
        try tampered.write(to: url)

        let sync = try second.run(["sync", "now"])
        XCTAssertEqual(sync.status, 4, "never 0 over a rejected object: \(sync.stderr)")
        XCTAssertTrue(sync.stdout.contains("rejected \(batch):"), sync.stdout)
        XCTAssertTrue(
            sync.stdout.contains("warning: blocked for device"), "later batches do not wait silently: \(sync.stdout)")
        let (exitStatus, json) = try status(second)
        XCTAssertEqual(exitStatus, 4)
        XCTAssertEqual(json["summary"] as? String, "error")
        XCTAssertEqual((json["standing_issues"] as? [[String: Any]])?.first?["kind"] as? String, "blocked")

        // The quick front hands over while the notice exists; the code alone goes to standard output.
        let code = try second.run(["code", "bob", "--at", "59"])
        XCTAssertEqual(code.status, 0, code.stderr)
        XCTAssertEqual(code.stdoutLines.count, 1)
        XCTAssertTrue(code.stdoutLines.first?.allSatisfy(\.isNumber) ?? false, code.stdout)
        XCTAssertEqual(warnings(code).count, 1, code.stderr)

        // Put back byte for byte: same name, same size.
        try original.write(to: url)
        let repaired = try second.run(["sync", "now"])
        XCTAssertEqual(repaired.status, 0, repaired.stderr)
        XCTAssertTrue(repaired.stdout.contains("imported 2 changes"), repaired.stdout)
        XCTAssertEqual(try status(second).status, 0)
        XCTAssertFalse(noticeExists(second))
        XCTAssertEqual(warnings(try second.run(["code", "bob"])), [])
    }

    func testARolledBackRemoteIsAnErrorForTheOtherDevice() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try enable(first)
        try enable(second)
        let old = scratch.appendingPathComponent("old-copy")
        try FileManager.default.copyItem(at: remoteFolder, to: old)
        try add(first, "alice")
        try succeed(first, ["sync", "now"])
        try succeed(second, ["sync", "now"])
        // An old copy of the folder is put back.
        try FileManager.default.removeItem(at: remoteFolder)
        try FileManager.default.copyItem(at: old, to: remoteFolder)

        let sync = try second.run(["sync", "now"])
        XCTAssertEqual(sync.status, 4, sync.stdout + sync.stderr)
        XCTAssertTrue(sync.stdout.contains("warning: rollback for device"), sync.stdout)
        let (exitStatus, json) = try status(second)
        XCTAssertEqual(exitStatus, 4)
        XCTAssertTrue((json["message"] as? String)?.contains("rollback") ?? false)
        XCTAssertEqual(try labels(second), ["Example:alice"], "nothing local is lost")
    }

    func testADeletedOrEmptiedRemoteShowsInTheLiveCheckBeforeAnySync() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try add(first, "alice")
        try enable(first)
        try enable(second)
        XCTAssertEqual(try status(second).status, 0)
        try succeed(first, ["sync", "disable", "--delete-remote", "--yes"])
        let deleted = try status(second)
        XCTAssertEqual(deleted.status, 7, "\(deleted.json)")
        XCTAssertEqual(deleted.json["summary"] as? String, "remote deleted")

        for file in remoteFiles() { try FileManager.default.removeItem(at: remoteFolder.appendingPathComponent(file)) }
        let emptied = try status(second)
        XCTAssertEqual(emptied.status, 6, "\(emptied.json)")
        XCTAssertEqual(emptied.json["summary"] as? String, "account not available")
    }

    func testAFailedBackgroundPushIsShownByTheNextCommand() throws {
        let device = try makeDevice()
        try add(device, "alice")
        try enable(device)
        let away = scratch.appendingPathComponent("unmounted")
        try FileManager.default.moveItem(at: remoteFolder, to: away)
        try succeed(device, ["edit", "Example:alice", "--tag", "work"])
        XCTAssertTrue(eventually { noticeExists(device) }, "the failed push left a notice")

        let list = try device.run(["list"])
        XCTAssertEqual(list.status, 0)
        XCTAssertEqual(warnings(list).count, 1, list.stderr)
        XCTAssertTrue(list.stdout.contains("alice"))
        XCTAssertNotEqual(try status(device, offline: true).status, 0)

        try FileManager.default.moveItem(at: away, to: remoteFolder)
        try succeed(device, ["sync", "now"])
        XCTAssertFalse(noticeExists(device))
        XCTAssertEqual(warnings(try device.run(["list"])), [])
    }

    /// The next sync that writes a batch in this device's folder removes them (FolderRemote).
    func testASyncRemovesThisDevicesTemporariesLeftByAKilledSync() throws {
        let device = try makeDevice()
        try add(device, "alice")
        try enable(device)
        let folder = try XCTUnwrap(remoteFiles().first { $0.contains("/b-") }).split(separator: "/").dropLast().joined(
            separator: "/")
        let leftover = remoteFolder.appendingPathComponent(folder).appendingPathComponent(".authcat-tmp-1234abcd")
        try Data("partial".utf8).write(to: leftover)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: leftover.path)
        try add(device, "bob")
        try succeed(device, ["sync", "now"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover.path))
    }
}
