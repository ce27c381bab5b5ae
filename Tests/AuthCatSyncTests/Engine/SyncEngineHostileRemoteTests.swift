import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import GRDB
import XCTest

@testable import AuthCatSync

/// Issue 17 §4–§5 on the engine: nothing unauthenticated is believed, and one
/// holder of the master key cannot break the others. The planted objects are
/// random bytes; the forged ones are sealed with the master key, unwrapped
/// from the manifest with the sync passphrase as an insider would.
final class SyncEngineHostileRemoteTests: SyncEngineTestCase {
    var a: SyncTestDevice!
    var b: SyncTestDevice!
    var vaultID: String!
    /// A device id no real device has: the insider writes as it.
    let insider = "00000000000000ff"

    override func setUp() async throws {
        try await super.setUp()
        a = try device("a")
        b = try device("b")
        vaultID = try await join(a, b)
    }

    private func plant(_ name: String) {
        remote.replaceObject(name, with: Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }))
    }

    /// The master key as anyone who knows the sync passphrase gets it.
    private func insiderKeys() throws -> SyncKeys {
        let manifest = try XCTUnwrap(remote.storedObjects[RemoteLayout.manifest(vaultID)])
        return try KeyManifest.decode(manifest, expectedVaultID: vaultID)
            .unlock(with: .passphrase(SecretBytes(utf8: SyncTestDevice.passphrase))).keys
    }

    /// A batch of the insider's holding one account, sealed with the master key; returns its name.
    @discardableResult
    private func forgeBatch(
        clock: HybridTimestamp, counter: UInt64 = 0, createdAt: Int64 = 1_700_000_000_000,
        sequence: Int64 = 1, previous: String = ""
    ) throws -> String {
        let stamped = { (value: String) in Stamped(value: value, clock: clock) }
        let account = AccountState(
            id: UUID().vaultString, createdAt: createdAt, counter: counter, issuer: stamped("Forged"),
            name: stamped("insider-\(sequence)"),
            otp: Stamped(value: AccountState.OTPSettings(OTPParameters(kind: .hotp)), clock: clock),
            secret: stamped(Data(repeating: 1, count: 20).base64EncodedString()),
            tags: Stamped(value: [], clock: clock),
            note: stamped(""), deleted: Stamped(value: false, clock: clock))
        let name = RemoteLayout.batch(vaultID, device: insider, sequence: sequence)
        let set = ChangeSet(
            format: ChangeSet.batchFormat, version: 1, vault: vaultID, device: insider, deviceName: "insider",
            vaultDevice: insider, sequence: sequence, previous: previous, createdAt: 0, accounts: [account],
            preferences: [])
        let sealed = try SealedObject.seal(
            try set.encoded(), key: try insiderKeys().objectKey, vault: vaultID, device: insider,
            name: name)
        remote.replaceObject(name, with: sealed)
        return name
    }

    private var now: Int64 { b.clock.now().unixMilliseconds }

    // MARK: - §4 markers

    func testAPlantedDisabledMarkerIsNotBelievedAndDisableEverywhereTakesTheNextRealGeneration() async throws {
        let planted = RemoteLayout.disabledMarker(vaultID, generation: RemoteLayout.maximumNumber)
        plant(planted)
        let report = try await b.sync()
        XCTAssertEqual(report.rejectedObjects.map(\.subject), [planted])
        XCTAssertTrue(SyncState.isEnabled(in: b.vault.location), "a planted marker turns nothing off")

        try await a.disable(everywhere: true)
        let names = remote.storedObjects.keys.filter { $0.contains("/disabled") }.sorted()
        XCTAssertEqual(
            names, [RemoteLayout.disabledMarker(vaultID, generation: 1), planted],
            "the real generation, no 11-digit name")
        XCTAssertEqual(try syncState(a).disabledGeneration, 1)

        let error = await syncError { try await self.b.sync() }
        XCTAssertEqual(error?.category, .disabledElsewhere, "the other device stops at the real marker")
        XCTAssertEqual(try syncState(b).disabledGeneration, 1)
    }

    func testTurningSyncOnAgainNextToAPlantedMarkerRemembersOnlyTheRealGeneration() async throws {
        try await a.disable(everywhere: true)
        plant(RemoteLayout.disabledMarker(vaultID, generation: RemoteLayout.maximumNumber))
        _ = await syncError { try await self.b.sync() }
        try await b.enable()
        XCTAssertEqual(try syncState(b).disabledGeneration, 1)
        try await a.enable()
        try await a.disable(everywhere: true)
        XCTAssertNotNil(remote.storedObjects[RemoteLayout.disabledMarker(vaultID, generation: 2)])
        let error = await syncError { try await self.b.sync() }
        XCTAssertEqual(error?.category, .disabledElsewhere)
    }

    func testAGenerationAnEarlierAuthcatTookFromAPlantedMarkerIsNotKept() async throws {
        try SyncStore.openIfPresent(in: b.vault.location)?.updateState {
            $0.disabledGeneration = RemoteLayout.maximumNumber
        }
        try await b.disable(everywhere: true)
        XCTAssertNotNil(
            remote.storedObjects[RemoteLayout.disabledMarker(vaultID, generation: 1)], "not past the name's width")
        let error = await syncError { try await self.a.sync() }
        XCTAssertEqual(error?.category, .disabledElsewhere)
    }

    func testAMarkerRejectedBeforeIsNotDownloadedAgainByDisableEverywhereOrTheProbe() async throws {
        let disabled = RemoteLayout.disabledMarker(vaultID, generation: RemoteLayout.maximumNumber)
        plant(disabled)
        let manifestName = RemoteLayout.manifest(vaultID)
        remote.removeObject(manifestName)
        let deleted = RemoteLayout.deletedMarker(vaultID)
        plant(deleted)
        let report = try await b.sync()
        XCTAssertEqual(Set(report.rejectedObjects.map(\.subject)), [disabled, deleted, manifestName])

        remote.resetCounts()
        let probe = await SyncProbe.check(remote, vaultID: vaultID, keysFrom: b.vault)
        guard case .failed(let failure) = probe else { return XCTFail("the probe passed over a planted marker") }
        XCTAssertEqual(failure.category, .integrity, failure.message)
        XCTAssertEqual(remote.counts.get, 0, "the probe does not read the known planted deletion marker again")

        try await b.disable(everywhere: true)
        XCTAssertEqual(remote.counts.get, 0, "nor does disable --everywhere read the known planted disabled marker")
        XCTAssertEqual(try syncState(b).disabledGeneration, 1)
    }

    func testAPlantedDeletionMarkerWithTheManifestHiddenIsReportedAndSplitsNothing() async throws {
        try a.add("Site", "one")
        try await a.sync()
        let manifestName = RemoteLayout.manifest(vaultID)
        let manifest = try XCTUnwrap(remote.storedObjects[manifestName])
        remote.removeObject(manifestName)
        let marker = RemoteLayout.deletedMarker(vaultID)
        plant(marker)

        let probe = await SyncProbe.check(remote, vaultID: vaultID, keysFrom: b.vault)
        guard case .failed(let failure) = probe else { return XCTFail("the probe passed over a planted marker") }
        XCTAssertEqual(failure.category, .integrity, failure.message)
        let unkeyed = await SyncProbe.check(remote, vaultID: vaultID)
        guard case .failed(let unconfirmed) = unkeyed else { return XCTFail("expected an unconfirmed marker") }
        XCTAssertNotEqual(unconfirmed.category, .remoteDeleted, "never believed without the key")

        let report = try await b.sync()
        XCTAssertEqual(
            Set(report.rejectedObjects.map(\.subject)), [marker, manifestName],
            "the planted marker and the missing manifest are reported")
        XCTAssertFalse(try syncState(b).remoteDeleted)

        try await b.disable()
        let resumed = try await b.enable()
        XCTAssertEqual(resumed.outcome, .resumed)
        XCTAssertEqual(resumed.remoteVaultID, vaultID, "no second vault beside the live one")

        let c = try SyncTestDevice("c", in: folder, remote: remote)
        let refused = await syncError { try await c.enable() }
        XCTAssertTrue(refused?.message.contains("without its manifest") ?? false, refused?.message ?? "")
        XCTAssertEqual(remote.storedObjects.keys.filter { $0.hasSuffix("/manifest") }, [], "nothing created")

        remote.replaceObject(manifestName, with: manifest)
        let joined = try await c.enable()
        XCTAssertEqual(joined.outcome, .joined, "a planted marker beside the manifest does not stop a join")
        XCTAssertEqual(joined.remoteVaultID, vaultID)
    }

    func testARealDeletionMarkerIsBelievedByTheProbeAndTheSync() async throws {
        try await a.disable(deleteRemote: true)
        let probe = await SyncProbe.check(remote, vaultID: vaultID, keysFrom: b.vault)
        guard case .failed(let failure) = probe else { return XCTFail("a deleted remote passed the probe") }
        XCTAssertEqual(failure.category, .remoteDeleted)
        let error = await syncError { try await self.b.sync() }
        XCTAssertEqual(error?.category, .remoteDeleted)
        let created = try await b.enable()
        XCTAssertEqual(created.outcome, .created, "a new vault once the old one is known deleted")
    }

    // MARK: - §4 the manifest

    func testAChangedManifestIsReportedWhileItStandsAndNeverUsed() async throws {
        try await checkAChangedManifestIsReportedUntilPutBack()
    }

    /// Without listed versions, the manifest is read at each sync, and the one put back ends the rejection.
    func testAChangedManifestOnARemoteWithoutVersionsIsReportedUntilPutBack() async throws {
        remote.stopListingVersions()
        try await checkAChangedManifestIsReportedUntilPutBack()
    }

    private func checkAChangedManifestIsReportedUntilPutBack() async throws {
        let name = RemoteLayout.manifest(vaultID)
        let original = try XCTUnwrap(remote.storedObjects[name])
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: original) as? [String: Any])
        var kdf = try XCTUnwrap(json["kdf"] as? [String: Any])
        kdf["opsLimit"] = 4_294_967_295
        json["kdf"] = kdf
        remote.replaceObject(name, with: try JSONSerialization.data(withJSONObject: json))

        let report = try await b.sync()
        XCTAssertEqual(report.rejectedObjects.map(\.subject), [name])
        XCTAssertTrue(report.rejectedObjects.first?.detail.contains("manifest changed") ?? false)
        remote.resetCounts()
        let again = try await b.sync()
        XCTAssertEqual(again.issues, [], "not reported again while it stays the same")
        let requests = remote.counts
        if try await remote.list(prefix: name).first?.version != nil {
            XCTAssertEqual(requests, RemoteRequestCounts(list: 1), "not downloaded again while its version stays")
        }
        let local = try XCTUnwrap(b.engine()).status()
        XCTAssertEqual(local.rejectedObjects.map(\.name), [name], "still shown")
        XCTAssertEqual(
            SyncStatus.fold(events: b.events.events, local: local, probe: nil, now: b.clock.now()).summary, .error)

        remote.replaceObject(name, with: original)
        try await b.sync()
        XCTAssertEqual(try XCTUnwrap(b.engine()).status().rejectedObjects, [], "healthy once put back")
    }

    func testAStateFromBeforeTheManifestCopyTakesTheManifestItFinds() async throws {
        try SyncStore.openIfPresent(in: b.vault.location)?.updateState {
            $0.manifestHash = nil
            $0.manifestVersion = nil
        }
        let report = try await b.sync()
        XCTAssertEqual(report.issues, [])
        XCTAssertEqual(
            try syncState(b).manifestHash,
            ObjectHash.of(try XCTUnwrap(remote.storedObjects[RemoteLayout.manifest(vaultID)])))
    }

    // MARK: - §4 a different vault where this device synced before

    func testJoiningADifferentVaultWhereThisDeviceSyncedBeforeNeedsConfirmation() async throws {
        for name in remote.storedObjects.keys { remote.removeObject(name) }
        let other = try SyncTestDevice("other", in: folder, remote: remote)
        let otherVault = try await other.enable(passphrase: SyncTestDevice.passphrase).remoteVaultID
        let mismatch = await syncError { try await self.b.sync() }
        XCTAssertEqual(mismatch?.category, .vaultMismatch)
        try await b.disable()

        let plan = try await SyncSetup.plan(vault: b.vault, remote: remote)
        XCTAssertEqual(plan, .joinDifferentVault)
        let refused = await syncError { try await self.b.enable() }
        XCTAssertEqual(refused?.nextStep, .joinDifferentVault)
        XCTAssertEqual(try syncState(b).remoteVaultID, vaultID, "nothing was set up")

        let joined = try await SyncSetup.enable(
            vault: b.vault, remote: remote, remoteURL: remote.displayLocation,
            secret: .passphrase(SecretBytes(utf8: SyncTestDevice.passphrase)), recorder: b.events, clock: b.clock,
            expecting: .joinDifferentVault)
        XCTAssertEqual(joined.remoteVaultID, otherVault)

        let elsewhere = try SyncTestDevice("elsewhere", in: folder, remote: remote)
        let firstJoin = try await SyncSetup.plan(vault: elsewhere.vault, remote: remote)
        XCTAssertEqual(firstJoin, .join, "a first join asks nothing more")
    }

    func testLocationsCompareByWhatTheyName() {
        XCTAssertTrue(SyncSetup.sameLocation("file:///tmp/remote", "/tmp/remote/"))
        XCTAssertTrue(SyncSetup.sameLocation("file:///tmp/remote", "file:///tmp/./remote"))
        XCTAssertFalse(SyncSetup.sameLocation("file:///tmp/remote", "file:///tmp/other"))
        XCTAssertFalse(SyncSetup.sameLocation("file:///tmp/remote", "s3://bucket/remote"))
    }

    // MARK: - §5 clocks

    func testABatchWithAClockAtInt64MaxIsRejectedWholeAndSyncGoesOn() async throws {
        let poisoned = try forgeBatch(clock: HybridTimestamp(wall: Int64.max, logical: Int64.max, device: insider))
        let report = try await b.sync()
        XCTAssertEqual(report.rejectedObjects.map(\.subject), [poisoned])
        XCTAssertFalse(try b.labels.contains { $0.hasPrefix("Forged") }, "rejected whole")
        XCTAssertTrue(try syncState(b).clock.isWithinBounds(reference: now), "the clock did not move")

        try b.add("Mail", "bob")
        try await b.sync()
        try await b.sync()
        try await a.sync()
        XCTAssertEqual(try a.labels, ["Mail:bob"], "later syncs work, and b's changes are accepted")
    }

    func testClocksMoreThanADayAheadAreRefusedAndOnesWithinADayAccepted() async throws {
        let ahead = try forgeBatch(
            clock: HybridTimestamp(
                wall: now + HybridLogicalClock.maximumLead + 60_000, logical: 0,
                device: insider))
        var report = try await b.sync()
        XCTAssertEqual(report.rejectedObjects.map(\.subject), [ahead])
        XCTAssertTrue(report.rejectedObjects.first?.detail.contains("more than a day ahead") ?? false)
        remote.removeObject(ahead)
        try forgeBatch(
            clock: HybridTimestamp(
                wall: now + 3_600_000, logical: HybridLogicalClock.maximumLogical + 1, device: insider))
        report = try await b.sync()
        XCTAssertTrue(report.rejectedObjects.first?.detail.contains("logical") ?? false)
        remote.removeObject(RemoteLayout.batch(vaultID, device: insider, sequence: 1))
        try forgeBatch(clock: HybridTimestamp(wall: now + 3_600_000, logical: 0, device: insider))
        report = try await b.sync()
        XCTAssertEqual(report.rejectedObjects, [])
        XCTAssertEqual(try b.labels, ["Forged:insider-1"])
    }

    func testADeviceWhoseStoredClockWasPoisonedRecovers() async throws {
        let account = try a.add("Mail", "alice")
        try await a.sync()
        try await b.sync()
        // What an authcat from before the bound left behind after importing a clock at Int64.max.
        let store = try XCTUnwrap(SyncStore.openIfPresent(in: b.vault.location))
        try store.write { db in
            try db.execute(sql: "UPDATE state SET hlcWall = ?, hlcLogical = ?", arguments: [Int64.max, Int64.max])
            let poisoned = HybridTimestamp(wall: Int64.max, logical: Int64.max, device: insider).description
            try db.execute(
                sql: "UPDATE record SET clocks = json_set(clocks, '$.note', ?) WHERE recordID = ?",
                arguments: [poisoned, account.id.vaultString])
        }
        try b.edit(account.id, AccountEdit(note: "after the repair"))
        let report = try await b.sync()
        XCTAssertEqual(report.issues, [])
        XCTAssertTrue(try syncState(b).clock.isWithinBounds(reference: now))
        let clocks = try store.read { try SyncStore.ClockRecord.fetchAll($0) }.flatMap(\.clocks.values)
        XCTAssertTrue(clocks.allSatisfy { HybridLogicalClock.isAcceptable($0, physicalNow: now) }, "\(clocks)")

        let fromB = try await a.sync()
        XCTAssertEqual(fromB.rejectedObjects, [], "b's batches are accepted again")
        XCTAssertEqual(try a.vault.account(id: account.id)?.note, "after the repair")
    }

    func testADeviceWhoseClockIsBehindTakesTheObjectsItRefusedOnceItsClockIsSetRight() async throws {
        b.clock.advance(by: -2 * 86_400)
        try a.add("Mail", "alice")
        try await a.sync()
        let name = RemoteLayout.batch(
            vaultID, device: try syncState(a).deviceID, sequence: try syncState(a).nextSequence - 1)

        let first = try await b.sync()
        XCTAssertEqual(first.rejectedObjects.map(\.subject), [name])
        XCTAssertTrue(first.rejectedObjects.first?.detail.contains("more than a day ahead") ?? false)
        let again = try await b.sync()
        XCTAssertEqual(again.rejectedObjects.map(\.subject), [name], "read again, and reported while it stands")
        let local = try XCTUnwrap(b.engine()).status()
        XCTAssertEqual(local.standingIssues.map(\.subject), [name], "sync status shows it")
        XCTAssertEqual(
            SyncStatus.fold(events: b.events.events, local: local, probe: nil, now: b.clock.now()).summary, .error)
        XCTAssertEqual(try b.labels, [])

        b.clock.advance(by: 2 * 86_400)  // NTP sets it right
        let fixed = try await b.sync()
        XCTAssertEqual(fixed.issues, [])
        XCTAssertEqual(try b.labels, ["Mail:alice"])
        let healthy = try XCTUnwrap(b.engine()).status()
        XCTAssertEqual(healthy.standingIssues, [])
        XCTAssertEqual(healthy.rejectedObjects, [])
    }

    func testAFarFutureBatchStaysRejectedOnEverySync() async throws {
        let ahead = try forgeBatch(
            clock: HybridTimestamp(
                wall: now + 365 * HybridLogicalClock.maximumLead, logical: 0,
                device: insider))
        for _ in 0..<3 {
            let report = try await b.sync()
            XCTAssertEqual(report.rejectedObjects.map(\.subject), [ahead])
            XCTAssertEqual(try XCTUnwrap(b.engine()).status().standingIssues.map(\.subject), [ahead])
        }
        XCTAssertFalse(try b.labels.contains { $0.hasPrefix("Forged") })
    }

    func testARejectionAnEarlierAuthcatRememberedForAClockAheadIsForgotten() throws {
        let queue = try DatabaseQueue()
        var migrator = SyncStore.migrator
        try migrator.migrate(queue, upTo: "v5-manifest-copy")
        try queue.write { db in
            for (name, detail) in [
                ("ahead", "malformed contents: a clock (1 ms) is more than a day ahead of this device's clock"),
                ("tampered", "failed authentication"),
            ] {
                try db.execute(
                    sql:
                        "INSERT INTO rejected (name, size, kind, detail, firstSeen, version) VALUES (?, 1, 'rejected', ?, 0, 'v')",
                    arguments: [name, detail])
            }
        }
        migrator = SyncStore.migrator
        try migrator.migrate(queue)
        XCTAssertEqual(try queue.read { try String.fetchAll($0, sql: "SELECT name FROM rejected") }, ["tampered"])
    }

    func testADeviceWhoseOwnClockRanFastIsAcceptedAgainOnceItIsSetRight() async throws {
        let account = try a.add("Mail", "alice")
        try await a.sync()
        try await b.sync()
        a.clock.advance(by: 4 * 365 * 86_400)  // the clock jumps years ahead, and a sync succeeds
        try a.edit(account.id, AccountEdit(note: "while fast"))
        try await a.sync()
        a.clock.advance(by: -4 * 365 * 86_400)  // NTP sets it right

        try a.edit(account.id, AccountEdit(note: "after the fix"))
        let repair = try await a.sync()
        XCTAssertTrue(repair.snapshotWritten, "in place of the batches with clocks the others refuse")
        XCTAssertTrue(try syncState(a).clock.isWithinBounds(reference: a.clock.now().unixMilliseconds), "repaired")
        let store = try XCTUnwrap(SyncStore.openIfPresent(in: a.vault.location))
        let clocks = try store.read { try SyncStore.ClockRecord.fetchAll($0) }.flatMap(\.clocks.values)
        XCTAssertTrue(
            clocks.allSatisfy { HybridLogicalClock.isAcceptable($0, physicalNow: a.clock.now().unixMilliseconds) })

        // b, whose clock was right all along, refused the batch written while a's clock was fast; the snapshot replaced it.
        let report = try await b.sync()
        XCTAssertEqual(report.rejectedObjects, [], "\(report.issues)")
        XCTAssertEqual(try b.vault.account(id: account.id)?.note, "after the fix")
    }

    /// A clock set back (a dead RTC battery) is not a poisoned one: the
    /// others reached that time too, so the device keeps its stamps, and a
    /// change it makes afterwards still wins over the others' older ones.
    func testADeviceWhoseClockWasSetBackKeepsItsStampsAndItsLaterChangesWin() async throws {
        let account = try a.add("Mail", "alice")
        try await a.sync()
        try await b.sync()
        try b.edit(account.id, AccountEdit(note: "from b"))
        try await b.sync()
        try await a.sync()
        a.clock.advance(by: -2 * 86_400)  // the clock loses two days

        try a.edit(account.id, AccountEdit(note: "from a, later"))
        let report = try await a.sync()
        XCTAssertFalse(report.snapshotWritten, "nothing to repair")
        try await b.sync()
        XCTAssertEqual(try b.vault.account(id: account.id)?.note, "from a, later", "a's later change wins")
        XCTAssertEqual(try a.vault.account(id: account.id)?.note, "from a, later")
    }

    // MARK: - §4 numbers

    func testCountersAndTimesPastWhatTheVaultHoldsAreRejectedNotTrapped() async throws {
        let clock = HybridTimestamp(wall: now, logical: 0, device: insider)
        let counter = try forgeBatch(clock: clock, counter: UInt64.max)
        var report = try await b.sync()
        XCTAssertEqual(report.rejectedObjects.map(\.subject), [counter])
        remote.removeObject(counter)
        let created = try forgeBatch(clock: clock, createdAt: Int64.max)
        report = try await b.sync()
        XCTAssertEqual(report.rejectedObjects.map(\.subject), [created])
        remote.removeObject(created)
        try forgeBatch(clock: clock, counter: OTPParameters.maximumCounter)
        report = try await b.sync()
        XCTAssertEqual(report.rejectedObjects, [], "the highest counter the vault holds is taken")
        let forged = try XCTUnwrap(b.vault.accounts().first { $0.issuer == "Forged" })
        XCTAssertEqual(forged.otp.counter, OTPParameters.maximumCounter)
        XCTAssertThrowsError(try b.vault.generateCode(for: forged, at: b.clock.now()), "exhausted, not a trap")
    }

    func testABatchNumberPastTheNameWidthIsNeverWritten() async throws {
        try SyncStore.openIfPresent(in: b.vault.location)?.updateState {
            $0.nextSequence = RemoteLayout.maximumNumber + 1
        }
        try b.add("Mail", "bob")
        let error = await syncError { try await self.b.sync() }
        XCTAssertTrue(error?.message.contains("does not fit") ?? false, error?.message ?? "")
        XCTAssertFalse(remote.storedObjects.keys.contains { $0.hasSuffix("b-10000000000") })
    }
}
