import AuthCatTestSupport
import Foundation
import XCTest

/// `authcat sync rotate` through the command line on a folder remote: the
/// remaining devices keep syncing without a question, the revoked one stops
/// with `revoked` (exit status 9), and a copy of its files (a stolen laptop)
/// reads nothing new and gets nothing accepted. The same scenarios run on a
/// WebDAV server and an rclone remote (`SyncRotateWebDAVTests`,
/// `SyncRotateRcloneTests`): a subclass only names the remote.
class SyncRotateTests: SyncTestCase {
    private func deviceID(_ device: AuthCatRunner) throws -> String {
        let devices = try XCTUnwrap(try status(device, offline: true).json["devices_seen"] as? [[String: Any]])
        return try XCTUnwrap(devices.first { $0["this_device"] as? Bool == true }?["id"] as? String)
    }

    private func settle(_ devices: AuthCatRunner...) {
        for device in devices { XCTAssertTrue(eventually { runningPushes(of: device).isEmpty }) }
    }

    func testARevokedDeviceStopsWithExitStatusNineWhileTheOthersTakeTheNewKey() throws {
        let (first, second, third) = (try makeDevice(), try makeDevice(), try makeDevice())
        try add(first, "alice")
        try enable(first)
        try enable(second)
        try enable(third)
        try add(third, "carol")
        settle(third)
        for device in [third, first, second] { try succeed(device, ["sync", "now"]) }
        let thirdID = try deviceID(third)
        // The thief's copy of the third device's files, taken before the rotation.
        let stolen = try makeDevice()
        try? FileManager.default.removeItem(at: stolen.home)
        try FileManager.default.copyItem(at: third.home, to: stolen.home)

        let output = try succeed(first, ["sync", "rotate", "--revoke", String(thirdID.prefix(6)), "--yes", "--json"])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        XCTAssertEqual(json["revoked"] as? [String], [thirdID])
        XCTAssertEqual(json["epoch"] as? Int, 1)
        let exposed = try XCTUnwrap(json["exposed_accounts"] as? [[String: Any]])
        XCTAssertEqual(exposed.compactMap { $0["name"] as? String }.sorted(), ["alice", "carol"])
        XCTAssertFalse(output.contains(Self.secret), "the checklist never holds a secret")
        XCTAssertFalse((json["advice"] as? [String] ?? []).isEmpty)
        XCTAssertFalse(remoteFiles().contains { $0.hasPrefix("authcat-") && $0.contains("/b-") && !$0.contains("/e-") })

        // The remaining device takes the new key without a question, and writes under it.
        try add(second, "bob")
        settle(second)
        try succeed(second, ["sync", "now"])
        try succeed(first, ["sync", "now"])
        XCTAssertEqual(try labels(first), ["Example:alice", "Example:bob", "Example:carol"])

        // The revoked device stops, keeps its accounts, and says so with exit status 9.
        let stopped = try third.run(["sync", "now"])
        XCTAssertNotEqual(stopped.status, 0)
        XCTAssertTrue(stopped.stderr.contains("revoked this device"), stopped.stderr)
        let (code, document) = try status(third, offline: true)
        XCTAssertEqual(code, 9)
        XCTAssertEqual(document["summary"] as? String, "revoked")
        XCTAssertEqual(document["revoked"] as? Bool, true)
        let text = try third.run(["sync", "status", "--offline"])
        XCTAssertEqual(text.status, 9)
        XCTAssertTrue(text.stdout.hasPrefix("sync: revoked"), text.stdout)
        XCTAssertEqual(try labels(third), ["Example:alice", "Example:carol"])
        XCTAssertTrue(try succeed(third, ["sync", "disable"]).contains("acknowledged"))
        XCTAssertEqual(try status(third, offline: true).status, 0)

        // The stolen copy reads nothing written after the rotation, and what it writes is not taken.
        try add(stolen, "planted")
        settle(stolen)
        let thief = try stolen.run(["sync", "now"])
        XCTAssertNotEqual(thief.status, 0)
        XCTAssertFalse(try labels(stolen).contains("Example:bob"))
        try succeed(second, ["sync", "now"])
        XCTAssertFalse(try labels(second).contains("Example:planted"))
    }

    /// The lost-device checklist lists every account the vault held, and says
    /// which the revoked device held at its last sync known here: one added
    /// after it is listed (the device may have synced since without writing,
    /// and its files with its storage credentials read the remote until the
    /// rotation) but not as held; one deleted before it is held.
    func testTheChecklistSaysWhatTheRevokedDeviceHeldAtItsLastKnownSync() throws {
        let (first, lost) = (try makeDevice(), try makeDevice())
        try add(first, "kept")
        try add(first, "gone")
        try enable(first)
        try enable(lost)
        try add(lost, "carol")
        settle(lost)
        try succeed(lost, ["sync", "now"])
        try succeed(first, ["sync", "now"])
        try succeed(first, ["rm", "Example:gone", "--yes"])
        try add(first, "late")
        settle(first)
        try succeed(first, ["sync", "now"])

        let output = try succeed(
            first, ["sync", "rotate", "--revoke", try deviceID(lost), "--yes", "--json"])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        XCTAssertNotNil(json["revoked_last_seen"] as? Int, output)
        let documented = try XCTUnwrap(try DocumentedJSON.examples()["authcat sync rotate --json"])
        XCTAssertEqual(DocumentedJSON.differences(json, from: documented), [], "docs/JSON.md describes it")
        let exposed = try XCTUnwrap(json["exposed_accounts"] as? [[String: Any]])
        let listed = Dictionary(
            uniqueKeysWithValues: exposed.map {
                ($0["name"] as? String ?? "", ($0["held"] as? Bool, $0["deleted"] as? Bool))
            })
        XCTAssertEqual(listed.keys.sorted(), ["carol", "gone", "kept", "late"], output)
        XCTAssertTrue(listed["kept"]! == (true, false), output)
        XCTAssertTrue(listed["carol"]! == (true, false), output)
        XCTAssertTrue(listed["gone"]! == (true, true), "deleted after it held it: \(output)")
        XCTAssertTrue(listed["late"]! == (false, false), "added after its last known sync: \(output)")
        XCTAssertEqual(exposed.last?["name"] as? String, "late", "what it held comes first")
        XCTAssertFalse(output.contains(Self.secret))
    }

    /// A device's name is known to the others from the moment it joins (a
    /// laptop stolen before its first change is revoked by the name the user
    /// gave it): the join announces it, before the device changes anything.
    func testAJoinedDeviceIsKnownAndRevocableByItsNameAtOnce() throws {
        let (first, laptop) = (try makeDevice(), try makeDevice())
        try add(first, "alice")
        try enable(first)
        try enable(laptop, ["--device-name", "laptop3"])
        try succeed(first, ["sync", "now"])

        let listed = try succeed(first, ["sync", "devices", "--json"])
        let devices = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        let entry = try XCTUnwrap(devices.first { $0["id"] as? String == (try? deviceID(laptop)) }, listed)
        XCTAssertEqual(entry["name"] as? String, "laptop3", listed)
        XCTAssertFalse(try succeed(first, ["sync", "devices"]).contains("(no name yet)"))

        try succeed(first, ["sync", "rotate", "--revoke", "laptop3", "--yes"])
        let after = try succeed(first, ["sync", "devices", "--json", "laptop3"])
        let revoked = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(after.utf8)) as? [[String: Any]])
        XCTAssertEqual(revoked.first?["revoked"] as? Bool, true, after)
        XCTAssertNotEqual(try laptop.run(["sync", "now"]).status, 0)
        XCTAssertEqual(try status(laptop, offline: true).status, 9, "the revoked laptop stops")
    }

    /// A device whose join was cut short after its certificate went out (so
    /// that no batch told its name) holds the key all the same: the others
    /// list it once they read its certificate, and revoke it by an id
    /// prefix. A certificate the authority did not sign adds no device.
    func testADeviceThatJoinedButNeverWroteIsListedAndRevocable() throws {
        let (first, silent) = (try makeDevice(), try makeDevice())
        try add(first, "alice")
        try enable(first)
        try enable(silent)
        let silentID = try deviceID(silent)
        try removeBatches(of: silentID)
        // Planted under an id whose first digits no real device's id shares, so
        // that the prefix below can only name the planted one (ids are random).
        let realIDs = [silentID, try deviceID(first)]
        let plantedID = try XCTUnwrap(
            ["00ff00ff00ff00ff", "ff00ff00ff00ff00", "a5a5a5a5a5a5a5a5"].first { planted in
                !realIDs.contains { $0.hasPrefix(planted.prefix(4)) }
            })
        try plantCertificate(copying: silentID, as: plantedID)
        try succeed(first, ["sync", "now"])

        let listed = try succeed(first, ["sync", "devices", "--json"])
        let devices = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        XCTAssertEqual(devices.compactMap { $0["id"] as? String }.sorted(), [try deviceID(first), silentID].sorted())
        let entry = try XCTUnwrap(devices.first { $0["id"] as? String == silentID })
        XCTAssertTrue(entry["name"] is NSNull, "no batch told its name: \(entry)")
        XCTAssertEqual(entry["revoked"] as? Bool, false)
        XCTAssertTrue(try succeed(first, ["sync", "devices"]).contains("(no name yet)"))
        let planted = try first.run(["sync", "devices", String(plantedID.prefix(4))])
        XCTAssertEqual(planted.status, 64, "an unsigned certificate is no device: \(planted.stdout)")

        try succeed(first, ["sync", "rotate", "--revoke", String(silentID.prefix(5)), "--yes"])
        let after = try succeed(first, ["sync", "devices", "--json", silentID])
        let revoked = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(after.utf8)) as? [[String: Any]])
        XCTAssertEqual(revoked.first?["revoked"] as? Bool, true, after)
        XCTAssertNotNil(revoked.first?["first_seen"] as? Int, "kept from when its certificate was read: \(after)")

        let stopped = try silent.run(["sync", "now"])
        XCTAssertNotEqual(stopped.status, 0)
        let (code, document) = try status(silent, offline: true)
        XCTAssertEqual(code, 9)
        XCTAssertEqual(document["summary"] as? String, "revoked")
    }

    /// Removes `device`'s batches from the remote, as if its join had
    /// stopped after its certificate was written.
    private func removeBatches(of device: String) throws {
        let batches = remoteFiles().filter { $0.contains("/\(device)/") }
        XCTAssertFalse(batches.isEmpty, "the join announced the device: \(remoteFiles())")
        for batch in batches { try FileManager.default.removeItem(at: remoteFolder.appendingPathComponent(batch)) }
    }

    /// Writes a certificate for `forged` on the remote, as a hostile remote
    /// could: `device`'s genuine one with the id swapped, so the authority's
    /// signature no longer covers it.
    private func plantCertificate(copying device: String, as forged: String) throws {
        let genuine = try XCTUnwrap(remoteFiles().first { $0.hasSuffix("/key-\(device)") }, "\(remoteFiles())")
        let source = remoteFolder.appendingPathComponent(genuine)
        let text = try String(contentsOf: source, encoding: .utf8)
        XCTAssertTrue(text.contains(device))
        let target = source.deletingLastPathComponent().appendingPathComponent("key-\(forged)")
        try text.replacingOccurrences(of: device, with: forged).write(to: target, atomically: true, encoding: .utf8)
    }

    /// The passphrase the help says it asks for comes before the y/N question:
    /// a user who types it straight away never has it echoed at the question.
    func testOnATerminalThePassphraseIsAskedBeforeTheConfirmation() throws {
        let device = try makeDevice()
        try enable(device)
        let rotated = try device.runInTerminal(
            ["sync", "rotate"], typing: [Self.passphrase + "\n", "y\n"],
            environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": ""])
        XCTAssertEqual(rotated.status, 0, rotated.stdout + rotated.stderr)
        let shown = rotated.stdout + rotated.stderr
        let asked = try XCTUnwrap(shown.range(of: "sync passphrase: "), shown)
        let confirmation = try XCTUnwrap(shown.range(of: "[y/N]"), shown)
        XCTAssertLessThan(asked.lowerBound, confirmation.lowerBound, shown)
        XCTAssertFalse(shown.contains(Self.passphrase), "the passphrase is never echoed: \(shown)")
        XCTAssertTrue(shown.contains("was rotated"), shown)
    }

    /// A wrong sync passphrase typed is asked for again, not the question,
    /// as every typed secret is; the remote is untouched until the right one (issue 33 §6).
    func testAWrongTypedPassphraseIsAskedForAgain() throws {
        let device = try makeDevice()
        try enable(device)
        let before = remoteFiles()
        let refused = try device.runInTerminal(
            ["sync", "rotate"], typing: ["wrong one\n", "y\n", "wrong two\n", "wrong three\n"],
            environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": ""])
        XCTAssertEqual(refused.status, 1, refused.stdout)
        XCTAssertEqual(refused.stdout.components(separatedBy: "[y/N]").count - 1, 1, "asked once: \(refused.stdout)")
        XCTAssertTrue(
            refused.stdout.contains(
                "authcat: warning: wrong sync passphrase or recovery key; try again (2 tries left)\nsync passphrase: "),
            refused.stdout)
        XCTAssertTrue(refused.stdout.contains("wrong sync passphrase or recovery key"), refused.stdout)
        XCTAssertEqual(remoteFiles(), before, "nothing was written to the remote")

        let rotated = try device.runInTerminal(
            ["sync", "rotate"], typing: ["wrong one\n", "y\n", Self.passphrase + "\n"],
            environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": ""])
        XCTAssertEqual(rotated.status, 0, rotated.stdout)
        XCTAssertTrue(rotated.stdout.contains("try again (2 tries left)"), rotated.stdout)
        XCTAssertTrue(rotated.stdout.contains("was rotated"), rotated.stdout)
    }

    func testWithoutATerminalItAsksForYesAndChangesNothing() throws {
        let device = try makeDevice()
        try enable(device)
        let before = remoteFiles()
        let refused = try device.run(["sync", "rotate"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("add --yes"), refused.stderr)
        XCTAssertEqual(remoteFiles(), before)
        let unknown = try device.run(["sync", "rotate", "--revoke", "zzzz", "--yes"])
        XCTAssertEqual(unknown.status, 64, "a word that names no device is a usage error")
        XCTAssertTrue(unknown.stderr.contains("no device"), unknown.stderr)
        XCTAssertEqual(remoteFiles(), before)
    }

    /// The built program killed with SIGKILL at seeded random moments, on the
    /// class's remote (and, for the folder class, on S3 too): after each kill
    /// the remaining device syncs and holds every account, and running the
    /// rotation again finishes it, leaving no object of an older key on the remote.
    func testAKillAtAnyMomentLeavesTheRemoteReadableAndRunningAgainFinishes() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["AUTHCAT_TEST_SEED"] ?? "") ?? 2_026_112_521
        print("\(Self.self) kill seed: \(seed) (AUTHCAT_TEST_SEED replays it)")
        var random = SeededRandom(seed: seed)
        // A rotation on a network remote takes longer: kills spread over a longer time.
        let killWindow: UInt32 = Self.sharedRemoteKind == nil ? 900_000 : 2_500_000
        try killRounds(
            remote: remoteURL, rounds: Self.sharedRemoteKind == nil ? 5 : 4, within: killWindow, random: &random)
        guard Self.sharedRemoteKind == nil else { return }
        let server = try MotoServer(logDirectory: scratch.path)
        defer { server.stop() }
        try killRounds(
            remote: server.location(prefix: "vault-\(UUID().uuidString.prefix(8))"), rounds: 3, within: killWindow,
            environment: server.environment, random: &random)
    }

    private func killRounds(
        remote: String, rounds: Int, within killWindow: UInt32, environment: [String: String] = [:],
        random: inout SeededRandom
    ) throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        for device in [first, second] { device.environment.merge(environment) { $1 } }
        for index in 0..<12 { try add(first, "account\(index)") }
        try enable(first, remote: remote)
        try enable(second, remote: remote)
        try add(second, "second")
        settle(first, second)
        // The background push may not have started when `settle` looked: the
        // second device's own sync puts its account on the remote for sure.
        try succeed(second, ["sync", "now"])
        try succeed(first, ["sync", "now"])
        let everything = try labels(first)
        XCTAssertTrue(everything.contains { $0.contains("second") }, "\(everything)")
        for round in 0..<rounds {
            let running = try start(first, ["sync", "rotate", "--yes"])
            usleep(UInt32.random(in: 0..<killWindow, using: &random))
            kill(running.pid, SIGKILL)
            _ = running.waitForExit(timeout: 60)
            let synced = try second.run(["sync", "now"])
            XCTAssertEqual(synced.status, 0, "round \(round): \(synced.stderr)")
            XCTAssertEqual(try labels(second), everything, "round \(round)")
        }
        try succeed(first, ["sync", "rotate", "--yes"])
        try succeed(second, ["sync", "now"])
        try succeed(first, ["sync", "now"])
        XCTAssertEqual(try labels(first), everything)
        let healthy = try status(second)
        XCTAssertEqual(healthy.status, 0, "\(healthy.json["summary"] ?? ""): \(healthy.json["message"] ?? "")")
        if remote == remoteURL {
            let epochs = Set(
                remoteFiles().filter { $0.contains("/b-") || $0.contains("/s-") }.map { $0.split(separator: "/")[1] })
            XCTAssertEqual(epochs.count, 1, "only the newest key's objects are left: \(epochs)")
            XCTAssertTrue(epochs.first?.hasPrefix("e-") == true, "\(epochs)")
        }
        // A device that joins now reads everything.
        let joiner = try makeDevice()
        joiner.environment.merge(environment) { $1 }
        try enable(joiner, remote: remote)
        XCTAssertEqual(try labels(joiner), everything)
    }
}

/// The rotation scenarios on a WebDAV server (lighttpd on loopback).
final class SyncRotateWebDAVTests: SyncRotateTests {
    override class var sharedRemoteKind: TestNetworkRemote.Kind? { .webdav }

    func testStatusNamesTheWebDAVRemote() throws {
        try assertStatusNamesTheRemoteKind("webdav")
    }
}

/// The rotation scenarios on an rclone remote (rclone's local backend).
final class SyncRotateRcloneTests: SyncRotateTests {
    override class var sharedRemoteKind: TestNetworkRemote.Kind? { .rclone }

    func testStatusNamesTheRcloneRemote() throws {
        try assertStatusNamesTheRemoteKind("rclone")
    }
}
