import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import XCTest

@testable import AuthCatSync

/// How names travel and stay unique, on the engine with a memory remote:
/// a rename goes out in a batch of its own, another device's name arrives
/// sanitized, and two devices that sent one name at once settle it by id.
final class DeviceNamingSyncTests: SyncEngineTestCase {
    func testARenameGoesOutInABatchEvenWithNothingElseToSend() async throws {
        let (a, b) = (try device("a"), try device("b"))
        a.syncDeviceID = "1111111111111111"
        b.syncDeviceID = "2222222222222222"
        try Self.addAccounts(a, b)
        try await join(a, b)
        try await a.sync()
        XCTAssertEqual(try a.service().devices().devices.map(\.name), ["a", "b"])

        let rename = try await a.service().renameDevice(to: "laptop")
        XCTAssertEqual(rename, DeviceRename(from: "a", to: "laptop"))
        let written = try await a.sync()
        XCTAssertEqual(written.objectsWritten, 1, "one batch carries the name")
        XCTAssertEqual(written.exportedChanges, 0)
        let again = try await a.sync()
        XCTAssertEqual(again.objectsWritten, 0, "and only once")
        try await b.sync()
        let seen = try b.service().devices()
        XCTAssertEqual(try seen.resolve("laptop").id, "1111111111111111")
        XCTAssertEqual(try seen.resolve("1111").name, "laptop")
    }

    func testANameAnotherDeviceHasIsRefusedWithNothingChanged() async throws {
        let (a, b) = (try device("a"), try device("b"))
        try Self.addAccounts(a, b)
        try await join(a, b)
        try await a.sync()
        let before = try syncState(a)
        do {
            _ = try await a.service().renameDevice(to: "b")
            XCTFail("renamed over another device's name")
        } catch let error as DeviceDirectory.NamingError {
            guard case .nameTaken("b", let other) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(other.id, try deviceID(b))
        }
        XCTAssertEqual(try syncState(a), before)
    }

    /// A and B renamed to `vm` and each synced before seeing the other's
    /// batch (here: the remote withheld A's until B had written). C sees
    /// two devices named `vm`; then B, whose id is larger, takes `vm-2`.
    func testTwoDevicesThatSentOneNameAtOnceSettleItByID() async throws {
        let (a, b, c) = (try device("a"), try device("b"), try device("c"))
        a.syncDeviceID = "1111111111111111"
        b.syncDeviceID = "2222222222222222"
        c.syncDeviceID = "3333333333333333"
        try Self.addAccounts(a, b, c)
        let vaultID = try await join(a, b, c)
        _ = try await a.service().renameDevice(to: "vm")
        _ = try await b.service().renameDevice(to: "vm")
        try await a.sync()
        let aBatch = try XCTUnwrap(
            remote.storedObjects.keys.filter { $0.hasPrefix(RemoteLayout.folder(vaultID) + "/1111111111111111/b-") }
                .max())
        let withheld = try XCTUnwrap(remote.storedObjects[aBatch])
        remote.removeObject(aBatch)
        try await b.sync()
        try await remote.put(aBatch, data: withheld)

        try await c.sync()
        XCTAssertThrowsError(try c.service().devices().resolve("vm")) { error in
            guard case .ambiguous(_, let candidates)? = error as? DeviceDirectory.NamingError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(candidates.map(\.id), ["1111111111111111", "2222222222222222"])
        }
        let kept = try await a.sync()
        XCTAssertNil(kept.deviceRenamed, "the smaller id keeps the name")
        let settled = try await b.sync()
        XCTAssertEqual(settled.deviceRenamed, DeviceRename(from: "vm", to: "vm-2"))
        try await c.sync()
        let directory = try c.service().devices()
        XCTAssertEqual(try directory.resolve("vm").id, "1111111111111111")
        XCTAssertEqual(try directory.resolve("vm-2").id, "2222222222222222")
    }

    func testAJoinerWhoseNameIsTakenYieldsBeforeItsNameGoesOut() async throws {
        let (a, b) = (try device("a"), try device("b"))
        a.syncDeviceID = "ffffffffffffffff"
        b.syncDeviceID = "0000000000000001"
        try Self.addAccounts(a, b)
        try await a.enable()
        try await a.sync()
        _ = try await SyncSetup.enable(
            vault: b.vault, remote: remote, remoteURL: remote.displayLocation,
            secret: .passphrase(SecretBytes(utf8: SyncTestDevice.passphrase)),
            kdf: KDFParameters.minimumForTesting(), recorder: b.events, clock: b.clock, deviceID: b.syncDeviceID,
            naming: SetupContext.Naming(chosen: "a", fallback: "b"))
        let first = try await b.sync()
        XCTAssertEqual(first.deviceRenamed, DeviceRename(from: "a", to: "a-2"))
        try await a.sync()
        XCTAssertEqual(
            try a.service().devices().devices.map(\.name), ["a", "a-2"], "the device that had it keeps it")
    }

    /// A device's name is known from its join, before it changes anything
    /// (a laptop stolen at once is revoked by its name), and a rename goes
    /// out at the next sync, in a batch that carries nothing else.
    func testADeviceIsKnownByItsNameFromItsJoin() async throws {
        let (a, b) = (try device("a"), try device("b"))
        b.syncDeviceID = "2222222222222222"
        try Self.addAccounts(a)
        try await join(a, b)
        try await a.sync()
        XCTAssertEqual(try a.service().devices().resolve("2222").name, "b")
        _ = try await b.service().renameDevice(to: "quiet")
        let renamed = try await b.sync()
        XCTAssertEqual(renamed.objectsWritten, 1, "the rename goes out at once")
        XCTAssertEqual(renamed.exportedChanges, 0)
        try await a.sync()
        XCTAssertEqual(try a.service().devices().devices.map(\.name), ["a", "quiet"])
        XCTAssertEqual(try a.service().devices().resolve("quiet").id, "2222222222222222")
    }

    func testAnotherDevicesNameArrivesSanitizedAndFirstSeenIsKept() async throws {
        let (a, b) = (try device("a"), try device("b"))
        try Self.addAccounts(a, b)
        try await join(a, b)
        try SyncStore.openIfPresent(in: b.vault.location)?.updateState { $0.deviceName = "evil\u{1B}[2J\nname\u{3164}" }
        try await b.sync()
        try await a.sync()
        let seen = try XCTUnwrap(try a.service().devices().devices.first { !$0.isThisDevice })
        XCTAssertEqual(seen.name, "evil<U+001B>[2J<U+000A>name<U+3164>")
        let firstSeen = try XCTUnwrap(seen.firstSeen)
        _ = try b.add("Example", "bob")
        try await b.sync()
        try await a.sync()
        let later = try XCTUnwrap(try a.service().devices().devices.first { !$0.isThisDevice })
        XCTAssertEqual(later.firstSeen, firstSeen)
        XCTAssertGreaterThan(try XCTUnwrap(later.lastSeen), firstSeen)
        // History names the writer the same way.
        let names = Set(try a.vault.history().map(\.device.name))
        XCTAssertTrue(names.contains("evil<U+001B>[2J<U+000A>name<U+3164>"), "\(names)")
    }

    /// Issue 32: a device whose name only looks like another's (here set
    /// past the command line's rules, as an older authcat or a thief could)
    /// yields as it would to the same name, and the renamed device's own
    /// batch carries when it joined.
    func testANameThatLooksLikeAnothersYieldsAndTheJoinTimeTravels() async throws {
        let (a, b) = (try device("a"), try device("b"))
        a.syncDeviceID = "1111111111111111"
        b.syncDeviceID = "2222222222222222"
        try Self.addAccounts(a, b)
        try await join(a, b)
        _ = try await a.service().renameDevice(to: "laptop")
        try await a.sync()
        try await b.sync()
        let disguised = "l\u{0430}pt\u{043E}p"
        try SyncStore.openIfPresent(in: b.vault.location)?.updateState { $0.deviceName = disguised }
        let report = try await b.sync()
        XCTAssertEqual(report.deviceRenamed, DeviceRename(from: disguised, to: disguised + "-2"))
        try await a.sync()
        let seenByA = try a.service().devices().devices
        let other = try XCTUnwrap(seenByA.first { $0.id == "2222222222222222" })
        XCTAssertEqual(other.displayName, "l\u{0430}pt\u{043E}p-2")
        XCTAssertEqual(other.shortID, "22222222")
        let joined = try XCTUnwrap(try SyncStore.openIfPresent(in: b.vault.location)?.state()?.joinedAt)
        XCTAssertEqual(other.joinedAt, Date(unixMilliseconds: joined))
        XCTAssertNotNil(seenByA.first(where: \.isThisDevice)?.joinedAt)

        // Renaming over a name that only looks like another's is refused, with nothing changed.
        let before = try syncState(a)
        do {
            _ = try await a.service().renameDevice(to: "LAPT0P-2")
            XCTFail("renamed to a name that looks like another device's")
        } catch let error as DeviceDirectory.NamingError {
            guard case .nameTaken(_, let taken) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(taken.id, "2222222222222222")
            XCTAssertTrue(error.description.contains("looks too like the name of another device"), error.description)
        }
        XCTAssertEqual(try syncState(a), before)
    }

    /// One account each, so that each device's first sync writes a batch, which carries its name.
    private static func addAccounts(_ devices: SyncTestDevice...) throws {
        for device in devices { _ = try device.add("Site", device.name) }
    }
}
