import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import GRDB
import XCTest

@testable import AuthCatSync

/// Issue 32 §B, DESIGN.md principle 9: bytes planted on the remote under an
/// object's name move no recorded position. They are reported while they
/// stand, and once they are gone the next sync finds the remote whole, on
/// every device; a genuine rollback is still reported.
final class SyncEnginePlantedObjectTests: SyncEngineTestCase {
    var a: SyncTestDevice!
    var b: SyncTestDevice!
    var vaultID: String!
    var random: SeededRandom!

    override func setUp() async throws {
        try await super.setUp()
        a = try device("a")
        b = try device("b")
        vaultID = try await join(a, b)
        try await a.sync()  // reads the batch with which b announced its name
        let seed = UInt64.random(in: 1...UInt64.max)
        print("SyncEnginePlantedObjectTests seed: \(seed)")
        random = SeededRandom(seed: seed)
    }

    private func garbage() -> Data {
        Data((0..<512).map { _ in UInt8.random(in: 0...255, using: &random!) })
    }

    private func status(_ device: SyncTestDevice) throws -> SyncStatus {
        SyncStatus.fold(
            events: device.events.events,
            local: try SyncState.localState(in: device.vault.location, vault: device.vault),
            probe: nil, now: device.clock.now())
    }

    private func peers(_ device: SyncTestDevice) throws -> [SyncStore.PeerRecord] {
        let store = try XCTUnwrap(try SyncStore.openIfPresent(in: device.vault.location))
        return try store.read { try SyncStore.PeerRecord.fetchAll($0) }
    }

    /// Plants `name`, shows every device reports it while it stands and
    /// records nothing from it, then removes it and shows every device healthy again.
    private func assertPlantedAndRemovedLeavesNoTrace(
        _ name: String, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let peersBefore = (try peers(a), try peers(b))
        try await remote.put(name, data: garbage())
        for device in [a!, b!] {
            // A device finds its own folder holds what it cannot read past its chain: its sync stops
            // (nothing of its own is overwritten) and says so; every other device rejects the object,
            // or, when its name leaves a hole before it, reports the hole.
            let isOwn = name.contains("/\(try deviceID(device))/")
            for _ in 0..<2 {
                do {
                    let report = try await device.sync()
                    XCTAssertFalse(isOwn, "the device whose folder it is stops", file: file, line: line)
                    let local = try status(device).local
                    XCTAssertTrue(
                        local.rejectedObjects.map(\.name) == [name] || local.standingIssues.map(\.kind) == [.gap],
                        "\(report.issues)", file: file, line: line)
                } catch let error as SyncError {
                    XCTAssertTrue(isOwn, "\(error)", file: file, line: line)
                }
                XCTAssertEqual(try status(device).summary, .error, "reported while it stands", file: file, line: line)
                XCTAssertEqual(try status(device).summary.exitCode, 4, file: file, line: line)
            }
        }
        XCTAssertEqual(
            try peers(a).map(\.seenSequence), peersBefore.0.map(\.seenSequence), "nothing recorded", file: file,
            line: line)
        XCTAssertEqual(try peers(b).map(\.deviceID), peersBefore.1.map(\.deviceID), file: file, line: line)

        remote.removeObject(name)
        for device in [a!, b!] {
            let report = try await device.sync()
            XCTAssertEqual(report.issues, [], file: file, line: line)
            let healthy = try status(device)
            XCTAssertEqual(healthy.local.rejectedObjects, [], file: file, line: line)
            XCTAssertEqual(healthy.local.standingIssues, [], file: file, line: line)
            XCTAssertEqual(healthy.summary, .succeeded, file: file, line: line)
            XCTAssertEqual(healthy.summary.exitCode, 0, file: file, line: line)
        }
    }

    func testABatchPlantedForAnUnknownDeviceLeavesNoTraceOnceRemoved() async throws {
        try await assertPlantedAndRemovedLeavesNoTrace(
            RemoteLayout.batch(vaultID, device: "0123456789abcdef", sequence: 1))
    }

    func testASnapshotPlantedForAnUnknownDeviceLeavesNoTraceOnceRemoved() async throws {
        try await assertPlantedAndRemovedLeavesNoTrace(
            RemoteLayout.snapshot(vaultID, device: "0123456789abcdef", sequence: 7))
    }

    func testABatchPlantedAheadOfAKnownDeviceLeavesNoTraceOnceRemoved() async throws {
        try a.add("Site", "one")
        try await a.sync()
        try await b.sync()
        let next = try syncState(a).nextSequence
        try await assertPlantedAndRemovedLeavesNoTrace(
            RemoteLayout.batch(vaultID, device: try deviceID(a), sequence: next + 3))
        try await assertPlantedAndRemovedLeavesNoTrace(
            RemoteLayout.snapshot(vaultID, device: try deviceID(a), sequence: next + 40))
        // A's next batch, written after all that, is read as ever.
        try a.add("Site", "two")
        try await a.sync()
        try await b.sync()
        let labels = try b.labels
        XCTAssertTrue(labels.contains("Site:two"), "\(labels)")
    }

    /// A snapshot planted far ahead of a device's position does not hold
    /// back its genuine batches: they are read past it while it is reported.
    func testAPlantedSnapshotDoesNotHoldBackADevicesBatches() async throws {
        try a.add("Site", "one")
        try await a.sync()
        try a.add("Site", "two")
        try await a.sync()
        let planted = RemoteLayout.snapshot(vaultID, device: try deviceID(a), sequence: 99)
        try await remote.put(planted, data: garbage())
        let report = try await b.sync()
        // Reported while it stands: the object, and the batches its number says are missing before it.
        XCTAssertEqual(report.issues.map(\.kind), [.rejected, .gap])
        XCTAssertEqual(report.issues.map(\.subject), [planted, try deviceID(a)])
        let labels = try b.labels
        XCTAssertTrue(labels.contains("Site:one") && labels.contains("Site:two"), "\(labels)")
        try await b.sync()
        XCTAssertTrue(try b.labels.contains("Site:two"))
        remote.removeObject(planted)
        try await b.sync()
        XCTAssertEqual(try status(b).summary, .succeeded)
    }

    /// Real batches that were read and are then deleted are still a rollback.
    func testARealBatchDeletedAfterItWasReadIsStillARollback() async throws {
        try a.add("Site", "one")
        try await a.sync()
        try a.add("Site", "two")
        try await a.sync()
        try await b.sync()
        let newest = try syncState(a).nextSequence - 1
        remote.removeObject(RemoteLayout.batch(vaultID, device: try deviceID(a), sequence: newest))
        let report = try await b.sync()
        XCTAssertEqual(report.chainWarnings.map(\.kind), [.rollback])
        XCTAssertTrue(report.chainWarnings.first?.detail.contains("number \(newest) was read before") ?? false)
        XCTAssertEqual(try status(b).summary, .error)
    }

    /// Another vault's manifest, planted while this vault's is missing, is
    /// a mismatch only while it stands: once it is gone the sync runs again
    /// (reporting the missing manifest), and with the manifest back all is well.
    func testAnotherVaultsManifestIsAMismatchOnlyWhileItStands() async throws {
        try a.add("Site", "one")
        try await a.sync()
        try await b.sync()
        let ours = RemoteLayout.manifest(vaultID)
        let manifest = try XCTUnwrap(remote.storedObjects[ours])
        remote.removeObject(ours)
        let planted = RemoteLayout.manifest(String(repeating: "ab", count: 16))
        try await remote.put(planted, data: garbage())
        let mismatch = await syncError { _ = try await self.b.sync() }
        XCTAssertEqual(mismatch?.category, .vaultMismatch)
        XCTAssertEqual(try status(b).summary, .vaultMismatch)

        remote.removeObject(planted)
        let report = try await b.sync()
        XCTAssertEqual(report.issues.map(\.subject), [ours])
        XCTAssertFalse(try syncState(b).vaultMismatch)
        XCTAssertEqual(try status(b).summary, .error)
        try await remote.put(ours, data: manifest)
        try await b.sync()
        XCTAssertEqual(try status(b).summary, .succeeded)
    }

    /// A state an earlier authcat left with a position taken from a listing
    /// (and a row for a device folder none of whose objects opened) forgets
    /// both when it is opened by this one.
    func testTheMigrationForgetsPositionsTakenFromListings() async throws {
        try a.add("Site", "one")
        try await a.sync()
        try await b.sync()
        let idA = try deviceID(a)
        let store = try XCTUnwrap(try SyncStore.openIfPresent(in: b.vault.location))
        let opened = try XCTUnwrap(try peers(b).first { $0.deviceID == idA })
        try store.write { db in
            try db.execute(sql: "UPDATE peer SET seenSequence = seenSequence + 5 WHERE deviceID = ?", arguments: [idA])
            try db.execute(
                sql: """
                    INSERT INTO peer (deviceID, vaultDeviceID, name, sequence, chainHash, seenSequence, lastSeen)
                    VALUES ('0123456789abcdef', '0123456789abcdef', '0123456789abcdef', 0, '', 1, NULL)
                    """)
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v12-seen-only-opened'")
        }
        let reopened = try XCTUnwrap(try SyncStore.openIfPresent(in: b.vault.location))
        let rows = try reopened.read { try SyncStore.PeerRecord.fetchAll($0) }
        XCTAssertEqual(rows.map(\.deviceID), [idA])
        XCTAssertEqual(rows.first?.seenSequence, opened.sequence)
        let report = try await b.sync()
        XCTAssertEqual(report.issues, [])
        XCTAssertEqual(try status(b).summary, .succeeded)
    }
}
