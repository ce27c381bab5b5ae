import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// Turning sync off here, everywhere, or deleting the remote data.
final class SyncEngineToggleTests: SyncEngineTestCase {
    var a: SyncTestDevice!
    var b: SyncTestDevice!

    override func setUp() async throws {
        try await super.setUp()
        a = try device("a")
        b = try device("b")
        try a.add("GitHub", "alice")
        try await a.enable()
        try await a.sync()
        try b.add("Mail", "bob")
        try await b.enable()
        try await b.sync()
        try await a.sync()
    }

    func testDisableKeepsEveryLocalAccountAndHistoryEntry() async throws {
        let history = try a.vault.history().count
        let before = try a.fingerprint()
        let objects = remote.storedObjects
        try await a.disable()
        XCTAssertNil(try a.engine())
        XCTAssertFalse(SyncState.isEnabled(in: a.vault.location))
        XCTAssertEqual(try a.fingerprint(), before)
        XCTAssertEqual(try a.vault.history().count, history)
        XCTAssertEqual(remote.storedObjects, objects, "a plain disable touches nothing remote")
        try await b.sync()
        XCTAssertTrue(SyncState.isEnabled(in: b.vault.location), "other devices go on")
    }

    func testDeleteRemoteLeavesOnlyAMarkerAndOtherDevicesStopKeepingTheirData() async throws {
        let vaultID = try XCTUnwrap(SyncStore.openIfPresent(in: a.vault.location)?.state()?.remoteVaultID)
        try await a.disable(deleteRemote: true)
        XCTAssertEqual(Array(remote.storedObjects.keys), [RemoteLayout.deletedMarker(vaultID)])
        XCTAssertEqual(try a.labels, ["GitHub:alice", "Mail:bob"])
        try b.add("Bank", "carol")
        let error = await syncError { try await self.b.sync() }
        XCTAssertEqual(error?.category, .remoteDeleted)
        XCTAssertEqual(Array(remote.storedObjects.keys), [RemoteLayout.deletedMarker(vaultID)], "b uploads nothing")
        XCTAssertEqual(try b.labels, ["Bank:carol", "GitHub:alice", "Mail:bob"])
        XCTAssertNil(try b.engine())
        XCTAssertTrue(try SyncState.localState(in: b.vault.location).remoteDeleted)
    }

    func testEnableAfterARemoteDeletionMakesANewRemoteVault() async throws {
        let old = try XCTUnwrap(SyncStore.openIfPresent(in: a.vault.location)?.state()?.remoteVaultID)
        try await a.disable(deleteRemote: true)
        let plan = try await SyncSetup.plan(vault: a.vault, remote: remote)
        XCTAssertEqual(plan, .create)
        let created = try await a.enable()
        XCTAssertEqual(created.outcome, .created)
        XCTAssertNotEqual(created.remoteVaultID, old)
        try await a.sync()
        _ = await syncError { try await self.b.sync() }
        let joined = try await b.enable()
        XCTAssertEqual(joined.outcome, .joined)
        try b.add("Bank", "carol")
        try await b.sync()
        try await a.sync()
        XCTAssertEqual(try a.fingerprint(), try b.fingerprint())
        XCTAssertEqual(try a.labels, ["Bank:carol", "GitHub:alice", "Mail:bob"])
    }

    func testDisableEverywhereTurnsOtherDevicesOffAtTheirNextContact() async throws {
        try await a.disable(everywhere: true)
        try b.add("Bank", "carol")
        let error = await syncError { try await self.b.sync() }
        XCTAssertEqual(error?.category, .disabledElsewhere)
        XCTAssertNil(try b.engine())
        XCTAssertTrue(try SyncState.localState(in: b.vault.location).disabledEverywhere)
        XCTAssertEqual(try b.labels, ["Bank:carol", "GitHub:alice", "Mail:bob"])
        XCTAssertEqual(b.events.events.last?.failure?.category, .disabledElsewhere)

        // Turning it on again steps past the marker, which stays for devices that have not seen it; the others can resume.
        let resumed = try await a.enable(secret: nil)
        XCTAssertEqual(resumed.outcome, .resumed)
        XCTAssertTrue(remote.storedObjects.keys.contains { $0.hasSuffix("/disabled-0000000001") })
        try await a.sync()
        try await b.enable(secret: nil)
        try await b.sync()
        try await a.sync()
        XCTAssertEqual(try a.labels, ["Bank:carol", "GitHub:alice", "Mail:bob"])
    }

    func testADeviceAsleepWhileSyncWasTurnedOffEverywhereAndOnAgainStillTurnsOff() async throws {
        let c = try SyncTestDevice("c", in: folder, remote: remote)
        try await c.enable()
        try await c.sync()
        // c sleeps through all of this.
        try await a.disable(everywhere: true)
        try await a.enable(secret: nil)
        try await a.sync()
        try await b.enable(secret: nil)
        try await b.sync()
        try a.add("Bank", "after")
        try await a.sync()

        try c.add("Shop", "carol")
        let error = await syncError { try await c.sync() }
        XCTAssertEqual(error?.category, .disabledElsewhere, "c turns off at its next contact")
        XCTAssertNil(try c.engine())
        XCTAssertEqual(try c.labels, ["GitHub:alice", "Mail:bob", "Shop:carol"], "keeping its data")
        XCTAssertEqual(try a.labels, ["Bank:after", "GitHub:alice", "Mail:bob"], "c exported nothing")

        // The devices that turned sync on again are not turned off by the marker that stays.
        try await a.sync()
        try await b.sync()
        XCTAssertNotNil(try a.engine())
        XCTAssertNotNil(try b.engine())
        // Nor is c once it turns sync on again, nor a new device.
        try await c.enable(secret: nil)
        try await c.sync()
        let d = try SyncTestDevice("d", in: folder, remote: remote)
        try await d.enable()
        try await d.sync()
        try await a.sync()
        for device in [a!, b!, c, d] {
            try await device.sync()
            XCTAssertEqual(try device.labels, ["Bank:after", "GitHub:alice", "Mail:bob", "Shop:carol"], device.name)
        }
    }

    func testASecondDisableEverywhereTurnsOffDevicesThatSteppedPastTheFirst() async throws {
        try await a.disable(everywhere: true)
        try await a.enable(secret: nil)
        try await b.enable(secret: nil)
        try await b.sync()
        try await b.disable(everywhere: true)
        XCTAssertEqual(
            remote.storedObjects.keys.filter { $0.contains("/disabled") }.map { String($0.suffix(19)) },
            ["disabled-0000000002"], "the older marker is replaced")
        let error = await syncError { try await self.a.sync() }
        XCTAssertEqual(error?.category, .disabledElsewhere)
    }

    func testASyncWithAMarkerAlreadySteppedPastIsStillOneListing() async throws {
        try await a.disable(everywhere: true)
        try await a.enable(secret: nil)
        try await a.sync()
        remote.resetCounts()
        try await a.sync()
        XCTAssertEqual(remote.counts, RemoteRequestCounts(list: 1))
    }

    func testStatusReportsDevicesPendingChangesAndLastSync() async throws {
        try a.add("Bank", "carol")
        let engine = try XCTUnwrap(a.engine())
        XCTAssertEqual(try engine.pendingLocalChanges(), 1)
        let status = try engine.status()
        XCTAssertTrue(status.isEnabled)
        XCTAssertEqual(status.remoteLocation, remote.displayLocation)
        XCTAssertEqual(status.pendingLocalChanges, 1)
        XCTAssertEqual(Set(status.devicesSeen.map(\.name)), ["a", "b"])
        XCTAssertEqual(status.devicesSeen.filter(\.isThisDevice).map(\.name), ["a"])
        XCTAssertNotNil(status.lastSuccessfulSync)
        let report = try await a.sync()
        XCTAssertEqual(Set(report.devicesSeen.map(\.name)), ["a", "b"])
        XCTAssertEqual(try engine.pendingLocalChanges(), 0)
    }
}
