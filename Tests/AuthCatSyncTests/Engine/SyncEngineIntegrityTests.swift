import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// What the engine does when the remote loses, replays, reorders or corrupts objects.
final class SyncEngineIntegrityTests: SyncEngineTestCase {
    var a: SyncTestDevice!
    var b: SyncTestDevice!
    var c: SyncTestDevice!
    var vaultID: String!

    /// Three devices joined and synced; `vaultID` is the remote vault.
    override func setUp() async throws {
        try await super.setUp()
        a = try device("a")
        b = try device("b")
        c = try device("c")
        vaultID = try await join(a, b, c)
    }

    func batch(_ device: SyncTestDevice, _ sequence: Int64) throws -> String {
        RemoteLayout.batch(vaultID, device: try deviceID(device), sequence: sequence)
    }

    /// A adds and exports one account per call; returns the batch name written.
    @discardableResult
    func exportFromA(_ name: String) async throws -> String {
        try a.add("Site", name)
        try await a.sync()
        let state = try syncState(a)
        return try batch(a, state.nextSequence - 1)
    }

    func testATamperedBatchIsRejectedAndReportedWhileTheRestSyncs() async throws {
        let name = try await exportFromA("one")
        try c.add("Mail", "carol")
        try await c.sync()
        XCTAssertTrue(remote.corruptObject(name, byteOffset: 100))
        let report = try await b.sync()
        XCTAssertEqual(report.issues.map(\.kind), [.rejected])
        XCTAssertEqual(report.issues.first?.subject, name)
        XCTAssertEqual(try b.labels, ["Mail:carol"], "c's change still arrived")
    }

    func testARejectedObjectIsRememberedNotReadAgainAndShownInStatus() async throws {
        let name = try await exportFromA("one")
        XCTAssertTrue(remote.corruptObject(name, byteOffset: 100))
        let first = try await b.sync()
        XCTAssertEqual(first.rejectedObjects.map(\.subject), [name])
        let status = try XCTUnwrap(b.engine()).status()
        XCTAssertEqual(status.rejectedObjects.map(\.name), [name])
        XCTAssertEqual(status.rejectedObjects.first?.kind, .rejected)

        remote.resetCounts()
        let again = try await b.sync()
        XCTAssertEqual(again.issues, [], "reported once, not on every sync")
        XCTAssertEqual(remote.counts, RemoteRequestCounts(list: 1), "not downloaded again")
        XCTAssertEqual(try XCTUnwrap(b.engine()).status().rejectedObjects.map(\.name), [name], "still visible")
        XCTAssertEqual(try b.labels, [])
    }

    func testARejectedObjectIsForgottenWhenItLeavesTheRemoteAndReadAgainWhenItChanges() async throws {
        let name = try await exportFromA("one")
        let original = try XCTUnwrap(remote.storedObjects[name])
        remote.replaceObject(name, with: original.prefix(original.count / 2))
        try await b.sync()
        XCTAssertEqual(try XCTUnwrap(b.engine()).status().rejectedObjects.count, 1)

        remote.replaceObject(name, with: original)
        let repaired = try await b.sync()
        XCTAssertEqual(repaired.issues, [])
        XCTAssertEqual(try b.labels, ["Site:one"], "a changed object is read again")
        XCTAssertEqual(try XCTUnwrap(b.engine()).status().rejectedObjects, [])
    }

    func testAForgedMarkerIsReportedOnceAndNotDownloadedAgain() async throws {
        let marker = RemoteLayout.disabledMarker(vaultID, generation: 1)
        remote.replaceObject(marker, with: Data(repeating: 7, count: 512))
        let first = try await b.sync()
        XCTAssertEqual(first.rejectedObjects.map(\.subject), [marker])
        remote.resetCounts()
        let again = try await b.sync()
        XCTAssertEqual(again.issues, [])
        XCTAssertEqual(remote.counts.get, 0)
        XCTAssertTrue(SyncState.isEnabled(in: b.vault.location))

        remote.removeObject(marker)
        try await b.sync()
        XCTAssertEqual(try XCTUnwrap(b.engine()).status().rejectedObjects, [], "forgotten once gone")
    }

    func testATruncatedBatchIsRejected() async throws {
        let name = try await exportFromA("one")
        let data = try XCTUnwrap(remote.storedObjects[name])
        remote.replaceObject(name, with: data.prefix(data.count / 2))
        let report = try await b.sync()
        XCTAssertEqual(report.rejectedObjects.map(\.subject), [name])
        XCTAssertEqual(try b.labels, [])
    }

    func testABatchReplayedUnderAnotherNameIsRejected() async throws {
        let first = try await exportFromA("one")
        let second = try await exportFromA("two")
        remote.replaceObject(second, with: try XCTUnwrap(remote.storedObjects[first]))
        let report = try await b.sync()
        XCTAssertEqual(report.rejectedObjects.map(\.subject), [second])
        XCTAssertEqual(try b.labels, ["Site:one"], "everything before the replayed object is imported")
    }

    func testABatchCopiedFromAnotherDeviceIsRejected() async throws {
        let fromA = try await exportFromA("one")
        try c.add("Mail", "carol")
        try await c.sync()
        let state = try syncState(c)
        let cName = try batch(c, state.nextSequence)
        remote.replaceObject(cName, with: try XCTUnwrap(remote.storedObjects[fromA]))
        let report = try await b.sync()
        XCTAssertEqual(report.rejectedObjects.map(\.subject), [cName])
    }

    func testADeviceWhoseBatchesGoBackwardsIsReported() async throws {
        try await exportFromA("one")
        let second = try await exportFromA("two")
        let third = try await exportFromA("three")
        try await b.sync()
        // The remote is restored from an older backup: a's last two batches vanish.
        remote.removeObject(third)
        remote.removeObject(second)
        let report = try await b.sync()
        XCTAssertEqual(report.chainWarnings.map(\.kind), [.rollback])
        XCTAssertEqual(report.chainWarnings.first?.subject, try deviceID(a))
        XCTAssertEqual(try b.labels, ["Site:one", "Site:three", "Site:two"], "nothing local is removed")
    }

    func testAGapInADevicesBatchesIsReportedAndLaterBatchesWait() async throws {
        try await exportFromA("one")
        let second = try await exportFromA("two")
        try await exportFromA("three")
        remote.removeObject(second)
        try c.add("Mail", "carol")
        try await c.sync()
        let report = try await b.sync()
        XCTAssertEqual(report.chainWarnings.map(\.kind), [.gap])
        XCTAssertEqual(try b.labels, ["Mail:carol", "Site:one"])
    }

    func testAForkedChainIsReported() async throws {
        try await exportFromA("one")
        try await exportFromA("two")
        try await b.sync()
        // a's next batch is replaced by a validly sealed one that does not follow the chain.
        let third = try await exportFromA("three")
        let state = try syncState(a)
        let keys = try SyncKeys.unsealLocally(
            state.sealedMasterKey, vault: a.vault, remoteVaultID: vaultID, deviceID: state.deviceID)
        var forged = try ChangeSet.decode(
            SealedObject.open(
                XCTUnwrap(remote.storedObjects[third]), key: keys.objectKey, vault: vaultID, device: state.deviceID,
                name: third),
            snapshot: false, vault: vaultID, device: state.deviceID, sequence: state.nextSequence - 1)
        forged.previous = String(repeating: "0", count: 64)
        remote.replaceObject(
            third,
            with: try SealedObject.seal(
                forged.encoded(), key: keys.objectKey, vault: vaultID,
                device: state.deviceID, name: third))
        let report = try await b.sync()
        XCTAssertEqual(report.issues.map(\.kind), [.replayed])
    }

    func testARemoteHoldingAnotherVaultStopsSyncAndKeepsLocalData() async throws {
        try b.add("Mail", "bob")
        try await b.sync()
        // Someone empties the remote and makes another vault there.
        for name in remote.storedObjects.keys { remote.removeObject(name) }
        let stranger = try SyncTestDevice("stranger", in: folder, remote: remote)
        try await stranger.enable(passphrase: "another")
        try await stranger.sync()
        let before = remote.storedObjects
        let error = await syncError { try await self.b.sync() }
        XCTAssertEqual(error?.category, .vaultMismatch)
        XCTAssertEqual(try b.labels, ["Mail:bob"])
        XCTAssertEqual(remote.storedObjects, before, "nothing was uploaded into the other vault")
        XCTAssertTrue(try SyncState.localState(in: b.vault.location).vaultMismatch)
        XCTAssertEqual(b.events.events.last?.failure?.category, .vaultMismatch)
    }

    func testAnEmptiedRemoteIsNotReadAsEverythingDeleted() async throws {
        try b.add("Mail", "bob")
        try await b.sync()
        for name in remote.storedObjects.keys { remote.removeObject(name) }
        let error = await syncError { try await self.b.sync() }
        XCTAssertEqual(error?.category, .containerMissing)
        XCTAssertEqual(try b.labels, ["Mail:bob"])
        XCTAssertTrue(remote.storedObjects.isEmpty, "nothing is uploaded to a remote that lost its vault")
    }

    func testAForgedMarkerIsReportedAndIgnored() async throws {
        remote.replaceObject(RemoteLayout.deletedMarker(vaultID), with: Data(repeating: 7, count: 512))
        let report = try await b.sync()
        XCTAssertEqual(report.rejectedObjects.map(\.subject), [RemoteLayout.deletedMarker(vaultID)])
        XCTAssertTrue(SyncState.isEnabled(in: b.vault.location))
    }

    func testAnUnreachableRemoteMidPushLeavesChangesPendingUntilTheNextSync() async throws {
        try await b.sync()  // reads c's batch, which announced c's name after b joined
        try b.add("Mail", "bob")
        // The listing gets through; the write of the batch does not.
        let failing = FaultyRemote(remote, failingAfter: 1)
        let engine = try XCTUnwrap(SyncEngine.open(vault: b.vault, remote: failing, recorder: b.events, clock: b.clock))
        let error = await syncError { _ = try await engine.sync() }
        XCTAssertEqual(error?.category, .unreachable)
        XCTAssertEqual(b.events.events.suffix(2).map(\.phase), [.export, .export])
        XCTAssertEqual(b.events.events.last?.kind, .failed)
        XCTAssertEqual(try engine.pendingLocalChanges(), 1)
        try await b.sync()
        XCTAssertEqual(try engine.pendingLocalChanges(), 0)
        try await a.sync()
        XCTAssertEqual(try a.labels, ["Mail:bob"])
    }

    func testADeviceRestoredFromABackupTakesBackItsOwnLaterBatches() async throws {
        let backup = folder.appendingPathComponent("a-backup")
        try FileManager.default.copyItem(at: a.home, to: backup)
        try await exportFromA("after backup")
        // a's folder is restored from the backup: its vault and sync state forget the last batch.
        let restoredHome = folder.appendingPathComponent("a")
        try FileManager.default.removeItem(at: restoredHome)
        try FileManager.default.moveItem(at: backup, to: restoredHome)
        let restored = try SyncTestDevice("a", in: folder, remote: remote, clock: a.clock)
        try restored.add("Site", "new")
        let report = try await restored.sync()
        XCTAssertEqual(report.issues, [])
        XCTAssertEqual(try restored.labels, ["Site:after backup", "Site:new"])
        try await b.sync()
        XCTAssertEqual(try b.labels, ["Site:after backup", "Site:new"], "the chain goes on without a fork")
    }
}
