import AuthCatTestSupport
import Foundation
import XCTest

/// Issue 20 §2, through the built programs run as processes: devices told
/// apart by unique names, a rename that reaches the others, `sync devices`
/// and a device named by its id, an id prefix or its name, on the folder and
/// S3 remotes.
final class SyncDevicesTests: SyncTestCase {
    /// One device as `sync devices --json` prints it (docs/JSON.md).
    struct Device: Decodable, Equatable {
        var id: String
        var shortID: String
        var name: String
        var joinedAt: Int?
        var firstSeen: Int?
        var lastSeen: Int?
        var thisDevice: Bool
        var revoked: Bool

        enum CodingKeys: String, CodingKey {
            case id, name, revoked
            case firstSeen = "first_seen"
            case lastSeen = "last_seen"
            case thisDevice = "this_device"
            case shortID = "short_id"
            case joinedAt = "joined_at"
        }
    }

    /// Both devices of a test run on this machine, so their host names are equal.
    let host: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "this device" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    // MARK: - Names on the folder and S3 remotes

    func testTwoDevicesOnOneHostGetDistinctNamesAndARenameReachesTheOtherOnAFolder() throws {
        try twoDevicesAreToldApart(remote: remoteURL)
    }

    func testTwoDevicesOnOneHostGetDistinctNamesAndARenameReachesTheOtherOnS3() throws {
        let server = try MotoServer(logDirectory: scratch.path)
        defer { server.stop() }
        try twoDevicesAreToldApart(
            remote: server.location(prefix: "vault-\(UUID().uuidString.prefix(8))"), environment: server.environment)
    }

    private func twoDevicesAreToldApart(remote: String, environment: [String: String] = [:]) throws {
        let (a, b) = (try makeDevice(), try makeDevice())
        a.environment.merge(environment) { $1 }
        b.environment.merge(environment) { $1 }
        try add(a, "alice")
        try add(b, "bob")
        let enabledA = try process(a, ["sync", "enable", "--remote", remote])
        XCTAssertTrue(enabledA.contains("this device is named '\(host)' ("), enabledA)
        let enabledB = try process(b, ["sync", "enable", "--remote", remote])
        XCTAssertTrue(
            enabledB.contains(
                "this device is now named '\(host)-2': another device of the remote vault is named '\(host)'"),
            enabledB)

        let seenByB = try devices(b)
        XCTAssertEqual(seenByB.map(\.name).sorted(), [host, "\(host)-2"].sorted())
        let (idA, idB) = (try id(of: host, in: seenByB), try id(of: "\(host)-2", in: seenByB))
        XCTAssertNotEqual(idA, idB)
        for device in seenByB {
            XCTAssertNotNil(device.id.range(of: "^[0-9a-f]{16}$", options: .regularExpression), device.id)
            XCTAssertEqual(device.thisDevice, device.id == idB)
            XCTAssertFalse(device.revoked)
            XCTAssertNotNil(device.firstSeen, "\(device)")
            XCTAssertNotNil(device.lastSeen, "\(device)")
            XCTAssertEqual(device.shortID, String(device.id.prefix(8)))
            // Each device's own batches say when it joined; B joined after A.
            XCTAssertNotNil(device.joinedAt, "\(device)")
        }
        XCTAssertLessThanOrEqual(
            try XCTUnwrap(seenByB.first { $0.id == idA }?.joinedAt),
            try XCTUnwrap(seenByB.first { $0.id == idB }?.joinedAt))
        // A learns B's name from the batch that carried B's account.
        try process(a, ["sync", "now"])
        let seenByA = try devices(a)
        XCTAssertEqual(seenByA.map(\.id).sorted(), [idA, idB].sorted())
        XCTAssertEqual(seenByA.first { $0.id == idB }?.name, "\(host)-2")
        XCTAssertEqual(seenByA.first(where: \.thisDevice)?.id, idA)

        // A rename on A shows on B once A's sync sent it and B synced.
        let renamed = try process(a, ["sync", "devices", "rename", "desk"])
        XCTAssertTrue(renamed.contains("this device is now named 'desk' (was '\(host)')"), renamed)
        XCTAssertTrue(eventually { runningPushes(of: a).isEmpty })
        try process(a, ["sync", "now"])
        XCTAssertEqual(try devices(b).first { $0.id == idA }?.name, host, "not before B syncs")
        try process(b, ["sync", "now"])
        let afterRename = try devices(b)
        XCTAssertEqual(afterRename.first { $0.id == idA }?.name, "desk")
        XCTAssertEqual(afterRename.first { $0.id == idB }?.name, "\(host)-2")

        // `sync status` names them the same way, as JSON and as text.
        let (_, json) = try status(b, offline: true)
        let seen = try XCTUnwrap(json["devices_seen"] as? [[String: Any]])
        XCTAssertEqual(
            Set(seen.map { "\($0["id"] ?? ""):\($0["name"] ?? "")" }),
            Set(afterRename.map { "\($0.id):\($0.name)" }))
        let text = try process(b, ["sync", "status", "--offline"])
        XCTAssertTrue(text.contains("desk") && text.contains(idA.prefix(8)) && text.contains("this device"), text)
        let table = try process(b, ["sync", "devices"]).split(separator: "\n").map(String.init)
        XCTAssertEqual(table.count, 3, "\(table)")
        XCTAssertTrue(table[0].hasPrefix("NAME"), table[0])
        XCTAssertTrue(table.contains { $0.hasPrefix("desk") && $0.contains(idA.prefix(8)) }, "\(table)")
        XCTAssertTrue(table.contains { $0.contains(idB.prefix(8)) && $0.hasSuffix("this device") }, "\(table)")
        XCTAssertFalse((enabledA + enabledB + renamed + text).contains(Self.passphrase))
    }

    // MARK: - Naming a device on the command line

    /// After `sync disable --delete-remote`, a new remote vault has none of
    /// the old one's devices: `sync devices` lists this device alone (issue 33 §8).
    func testANewRemoteVaultListsNoneOfTheOldOnesDevices() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try add(first, "alice")
        try enable(first)
        try enable(second)
        try succeed(first, ["sync", "now"])
        XCTAssertEqual(try listedIDs(first).count, 2)
        try succeed(first, ["sync", "disable", "--delete-remote", "--yes"])
        let elsewhere = "file://" + scratch.appendingPathComponent("another-remote").path
        try enable(first, remote: elsewhere)
        XCTAssertEqual(try listedIDs(first), [try XCTUnwrap(try listedIDs(first).first)])
        let (status, json) = try status(first)
        XCTAssertEqual(status, 0, "\(json)")
    }

    private func listedIDs(_ device: AuthCatRunner) throws -> [String] {
        let listed = try succeed(device, ["sync", "devices", "--json"])
        let devices = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        return devices.compactMap { $0["id"] as? String }
    }

    func testADeviceIsNamedByItsIDAPrefixOrItsNameAndOtherWordsAreUsageErrors() throws {
        let (a, b) = (try makeDevice(), try makeDevice())
        try add(a, "alice")
        try add(b, "bob")
        try process(a, ["sync", "enable", "--remote", remoteURL, "--device-name", "laptop"])
        try process(b, ["sync", "enable", "--remote", remoteURL, "--device-name", "phone"])
        try process(a, ["sync", "now"])
        let all = try devices(a)
        let phone = try XCTUnwrap(all.first { $0.name == "phone" })
        for word in [phone.id, phone.id.uppercased(), String(phone.id.prefix(4)), String(phone.id.prefix(9)), "phone"] {
            XCTAssertEqual(try devices(a, [word]), [phone], word)
        }

        let before = try unchanged(a)
        for (word, said) in [
            ("tablet", "no device is named 'tablet'; the devices are laptop ("),
            ("Phone", "no device is named 'Phone'"),
            (String(phone.id.prefix(3)), "too short to name a device: give at least 4 digits"),
        ] {
            let refused = try a.runAsProcess(["sync", "devices", word, "--json"])
            XCTAssertEqual(refused.status, 64, word)
            XCTAssertEqual(refused.stdout, "", word)
            XCTAssertTrue(refused.stderr.contains(said), refused.stderr)
            XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        }
        before.assertSame(try unchanged(a))
    }

    /// A remote that withholds the batch carrying A's rename shows a third
    /// device A under its old name, which B took since: the name is
    /// ambiguous there, and refused with both ids listed; each id still
    /// names its device.
    func testANameTwoDevicesCarryIsAmbiguousAndTheirIDsStillNameThem() throws {
        let (a, b, c) = (try makeDevice(), try makeDevice(), try makeDevice())
        try add(a, "alice")
        try add(b, "bob")
        try process(a, ["sync", "enable", "--remote", remoteURL, "--device-name", "vm"])
        try process(b, ["sync", "enable", "--remote", remoteURL, "--device-name", "desk"])
        try process(a, ["sync", "devices", "rename", "laptop"])
        XCTAssertTrue(eventually { runningPushes(of: a).isEmpty })
        try process(a, ["sync", "now"])
        try process(b, ["sync", "now"])
        try process(b, ["sync", "devices", "rename", "vm"])
        XCTAssertTrue(eventually { runningPushes(of: b).isEmpty })
        try process(b, ["sync", "now"])
        let idA = try id(of: "laptop", in: try devices(b))
        let idB = try id(of: "vm", in: try devices(b))

        let renameBatch = try XCTUnwrap(remoteFiles().filter { $0.contains("/\(idA)/b-") }.max())
        let hidden = scratch.appendingPathComponent("hidden-batch")
        try FileManager.default.moveItem(at: remoteFolder.appendingPathComponent(renameBatch), to: hidden)
        _ = try c.runAsProcess(["sync", "enable", "--remote", remoteURL, "--device-name", "c"])
        XCTAssertEqual(try devices(c).filter { $0.name == "vm" }.map(\.id).sorted(), [idA, idB].sorted())

        let before = try unchanged(c)
        let refused = try c.runAsProcess(["sync", "devices", "vm"])
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.stderr.contains("'vm' names 2 devices: "), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("vm (\(idA))") && refused.stderr.contains("vm (\(idB))"), refused.stderr)
        before.assertSame(try unchanged(c))
        XCTAssertEqual(try devices(c, [idA]).map(\.id), [idA])
        XCTAssertEqual(try devices(c, [String(idB.prefix(6))]).map(\.id), [idB])

        // Once the batch is back, the rename reaches C too.
        try FileManager.default.moveItem(at: hidden, to: remoteFolder.appendingPathComponent(renameBatch))
        _ = try c.runAsProcess(["sync", "now"])
        XCTAssertEqual(try devices(c, ["vm"]).map(\.id), [idB])
    }

    // MARK: - Names that are refused

    func testBadNamesAreRefusedWithNothingChanged() throws {
        let (a, b) = (try makeDevice(), try makeDevice())
        try add(a, "alice")
        let bad: [(String, String)] = [
            ("", "cannot be empty"),
            (String(repeating: "n", count: 65), "at most 64 characters"),
            ("two\nlines", "control characters"),
            ("esc\u{1B}[2J", "control characters"),
            (" padded", "start or end with a space"),
            ("0123456789abcdef", "look like a device id"),
            // Issue 32: nothing invisible or blank-looking, whatever its category.
            ("laptop\u{3164}", "invisible or blank-looking"),
            ("laptop\u{2800}", "invisible or blank-looking"),
            ("lap\u{115F}top", "invisible or blank-looking"),
            ("lap\u{FE0F}top", "invisible or blank-looking"),
            ("two\u{2009}words", "invisible or blank-looking"),
            ("lap\u{200D}top", "control characters"),
            ("lap\u{061C}top", "control characters"),
            ("lap\u{F8FF}top", "private-use"),
        ]
        let vaultBefore = try VaultSnapshot.take(a)
        for (name, said) in bad {
            let refused = try a.runAsProcess(["sync", "enable", "--remote", remoteURL, "--device-name", name])
            XCTAssertEqual(refused.status, 64, name.debugDescription)
            XCTAssertTrue(refused.stderr.contains(said), refused.stderr)
            XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: remoteFolder.path), "no remote made")
        XCTAssertFalse(FileManager.default.fileExists(atPath: a.home.appendingPathComponent("sync.sqlite").path))
        XCTAssertEqual(try VaultSnapshot.take(a), vaultBefore)

        try add(b, "bob")
        try process(a, ["sync", "enable", "--remote", remoteURL, "--device-name", "laptop"])
        try process(b, ["sync", "enable", "--remote", remoteURL, "--device-name", "phone"])
        let before = try unchanged(b)
        let taken = [
            ("laptop", "another device is already named 'laptop'"),
            // Too like another device's name to tell apart: case, width, script, digits for letters.
            ("LAPTOP", "looks too like the name of another device, laptop ("),
            ("ｌａｐｔｏｐ", "looks too like the name of another device"),
            ("l\u{0430}pt\u{043E}p", "looks too like the name of another device"),
            ("1APT0P", "looks too like the name of another device"),
        ]
        for (name, said) in bad + taken {
            let refused = try b.runAsProcess(["sync", "devices", "rename", name])
            XCTAssertEqual(refused.status, 64, name.debugDescription)
            XCTAssertTrue(refused.stderr.contains(said), refused.stderr)
        }
        before.assertSame(try unchanged(b))
        XCTAssertEqual(try devices(b).first(where: \.thisDevice)?.name, "phone")
    }

    // MARK: - Helpers

    /// Runs the built `authcat` as a process; it must succeed. Returns its output.
    @discardableResult
    private func process(
        _ device: AuthCatRunner, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        let result = try device.runAsProcess(arguments)
        XCTAssertEqual(
            result.status, 0, "authcat \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result.stdout
    }

    /// `sync devices [word] --json`, decoded.
    private func devices(
        _ device: AuthCatRunner, _ word: [String] = [], file: StaticString = #filePath, line: UInt = #line
    ) throws -> [Device] {
        let output = try process(device, ["sync", "devices"] + word + ["--json"], file: file, line: line)
        return try JSONDecoder().decode([Device].self, from: Data(output.utf8))
    }

    private func id(of name: String, in devices: [Device]) throws -> String {
        try XCTUnwrap(devices.first { $0.name == name }, "no device named \(name) in \(devices)").id
    }

    /// The vault byte for byte, and the sync state as the program reads it
    /// (`sync.sqlite`'s bytes change whenever it is opened), to prove a refusal changed nothing.
    private struct Unchanged {
        var vault: VaultSnapshot
        var syncState: [String]

        func assertSame(_ other: Unchanged, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertEqual(vault.changedFiles(comparedTo: other.vault), [], file: file, line: line)
            XCTAssertEqual(syncState, other.syncState, "the sync state reads the same", file: file, line: line)
        }
    }

    private func unchanged(_ device: AuthCatRunner) throws -> Unchanged {
        XCTAssertTrue(eventually { runningPushes(of: device).isEmpty })
        return Unchanged(
            vault: try VaultSnapshot.take(device),
            syncState: [
                try process(device, ["sync", "devices", "--json"]),
                // Its exit status says whether sync is healthy, which a test may have made it not.
                try device.runAsProcess(["sync", "status", "--json", "--offline"]).stdout,
            ])
    }
}
