import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// Problems on the remote stay visible in the monitor until they are
/// repaired, and a repaired object is read again (issue 8 §4).
final class SyncEngineStandingIssueTests: XCTestCase {
    var folder: URL!
    var remote: MemoryRemote!
    var a: SyncTestDevice!
    var b: SyncTestDevice!
    var vaultID: String!

    override func setUp() async throws {
        folder = try makeTemporaryDirectory().url
        remote = MemoryRemote()
        a = try SyncTestDevice("a", in: folder, remote: remote)
        b = try SyncTestDevice("b", in: folder, remote: remote)
        vaultID = try await a.enable().remoteVaultID
        try await a.sync()
        try await b.enable()
        try await b.sync()
    }

    private func deviceID(_ device: SyncTestDevice) throws -> String {
        try XCTUnwrap(SyncStore.openIfPresent(in: device.vault.location)?.state()?.deviceID)
    }

    /// A adds and exports one account; returns the batch name written.
    @discardableResult
    private func exportFromA(_ name: String) async throws -> String {
        try a.add("Site", name)
        try await a.sync()
        let state = try XCTUnwrap(SyncStore.openIfPresent(in: a.vault.location)?.state())
        return RemoteLayout.batch(vaultID, device: try deviceID(a), sequence: state.nextSequence - 1)
    }

    /// What `sync status --offline` would say on `device` now.
    private func status(_ device: SyncTestDevice) throws -> SyncStatus {
        SyncStatus.fold(
            events: device.events.events,
            local: try SyncState.localState(in: device.vault.location, vault: device.vault),
            probe: nil, now: device.clock.now())
    }

    func testARejectedObjectAndTheBatchesBehindItShowUntilItIsRepairedWithTheSameSize() async throws {
        let tampered = try await exportFromA("one")
        try await exportFromA("two")
        let original = try XCTUnwrap(remote.storedObjects[tampered])
        XCTAssertTrue(remote.corruptObject(tampered, byteOffset: 100))

        let first = try await b.sync()
        XCTAssertEqual(first.issues.map(\.kind), [.rejected, .blocked])
        XCTAssertEqual(try status(b).summary, .error, "never succeeded over a rejected object")
        XCTAssertEqual(try status(b).summary.exitCode, 4)

        let again = try await b.sync()
        XCTAssertEqual(
            again.issues.map(\.kind), [.blocked], "the waiting batches are said on every sync, the object once")
        XCTAssertEqual(again.issues.first?.subject, try deviceID(a))
        let waiting = try status(b)
        XCTAssertEqual(waiting.local.rejectedObjects.map(\.name), [tampered])
        XCTAssertEqual(waiting.local.standingIssues.map(\.kind), [.blocked])
        XCTAssertEqual(waiting.summary, .error)
        XCTAssertTrue(waiting.message?.contains("1 rejected object") ?? false, waiting.message ?? "")

        // Put back as it was: the same size, so only its version tells.
        remote.replaceObject(tampered, with: original)
        let repaired = try await b.sync()
        XCTAssertEqual(repaired.issues, [])
        XCTAssertEqual(try b.labels, ["Site:one", "Site:two"], "the repaired object and the batch behind it are read")
        let healthy = try status(b)
        XCTAssertEqual(healthy.local.rejectedObjects, [])
        XCTAssertEqual(healthy.local.standingIssues, [])
        XCTAssertEqual(healthy.summary, .succeeded)
    }

    func testARollbackStaysInTheStatusUntilTheDeviceRepairsIt() async throws {
        try await exportFromA("one")
        let second = try await exportFromA("two")
        let third = try await exportFromA("three")
        try await b.sync()
        remote.removeObject(third)
        remote.removeObject(second)

        try await b.sync()
        try await b.sync()
        let rolledBack = try status(b)
        XCTAssertEqual(rolledBack.summary, .error)
        XCTAssertEqual(rolledBack.local.standingIssues.map(\.kind), [.rollback])
        XCTAssertEqual(rolledBack.local.standingIssues.first?.subject, try deviceID(a))
        XCTAssertTrue(rolledBack.message?.contains(try deviceID(a)) ?? false, "the device concerned is named")

        // A finds its own objects rolled back and writes a snapshot over the hole.
        let repair = try await a.sync()
        XCTAssertEqual(repair.chainWarnings.map(\.kind), [.rollback])
        XCTAssertTrue(repair.snapshotWritten)
        XCTAssertEqual(try status(a).summary, .error, "a's own rollback shows until a sync finds the remote whole")
        try await a.sync()
        XCTAssertEqual(try status(a).summary, .succeeded)
        try await b.sync()
        XCTAssertEqual(try status(b).local.standingIssues, [])
        XCTAssertEqual(try status(b).summary, .succeeded)
    }

    func testAGapStaysInTheStatusUntilACompactionCoversIt() async throws {
        try await exportFromA("one")
        let second = try await exportFromA("two")
        try await exportFromA("three")
        remote.removeObject(second)
        try await b.sync()
        let first = try XCTUnwrap(try status(b).local.standingIssues.first)
        XCTAssertEqual(first.kind, .gap)
        b.clock.advance(by: 60)
        try await b.sync()
        XCTAssertEqual(
            try status(b).local.standingIssues, [first], "the same issue, first seen when it was first found")
        try await a.compact()
        try await b.sync()
        XCTAssertEqual(try status(b).local.standingIssues, [])
        XCTAssertEqual(try b.labels, ["Site:one", "Site:three", "Site:two"])
    }

    // MARK: - Lost sync state

    private var syncFile: URL { SyncStore.url(in: b.vault.location) }

    private func assertLost(_ detail: String, file: StaticString = #filePath, line: UInt = #line) async throws {
        let local = try SyncState.localState(in: b.vault.location)
        XCTAssertFalse(local.isEnabled, file: file, line: line)
        let problem = try XCTUnwrap(
            local.stateProblem, "\(detail): the lost state is not noticed", file: file, line: line)
        XCTAssertEqual(problem.nextStep, .rejoinSync, problem.message, file: file, line: line)
        XCTAssertTrue(
            problem.message.contains(remote.displayLocation), "says which remote it synced with: \(problem.message)",
            file: file, line: line)
        let status = SyncStatus.fold(events: b.events.events, local: local, probe: nil, now: Date())
        XCTAssertEqual(status.summary, .error, "\(detail): never off", file: file, line: line)
        XCTAssertThrowsError(try b.engine(), "\(detail): the engine does not open as off", file: file, line: line)
        let plan = await syncError { _ = try await SyncSetup.plan(vault: self.b.vault, remote: self.remote) }
        XCTAssertNotNil(plan, "\(detail): enable does not join as a new device", file: file, line: line)
    }

    func testAMissingEmptiedOrDamagedStateIsAnErrorThatSaysWhatToDo() async throws {
        let good = try Data(contentsOf: syncFile)
        for (detail, damage) in [
            ("missing", { try FileManager.default.removeItem(at: self.syncFile) }),
            ("emptied", { try Data().write(to: self.syncFile) }),
            ("damaged", { try Data(repeating: 0x5a, count: 8192).write(to: self.syncFile) }),
        ]
            as [(String, () throws -> Void)]
        {
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: syncFile.path + suffix) }
            try damage()
            try await assertLost(detail)
            try? FileManager.default.removeItem(atPath: syncFile.path + "-wal")
            try? FileManager.default.removeItem(atPath: syncFile.path + "-shm")
            try good.write(to: syncFile)
            XCTAssertNil(
                try SyncState.localState(in: b.vault.location).stateProblem, "\(detail): the good state is usable again"
            )
        }
    }

    func testForgettingTheLostStateSetsItAsideAndLetsTheDeviceJoinAgain() async throws {
        try b.add("Mail", "bob")
        try Data().write(to: syncFile)
        let setAside = try await Self.forgetLostState(b.vault, clock: ManualClock(Date(timeIntervalSince1970: 5)))
        let aside = try XCTUnwrap(setAside)
        XCTAssertTrue(FileManager.default.fileExists(atPath: aside), "set aside, never deleted")
        XCTAssertTrue(aside.hasSuffix("sync.sqlite.lost-5000"))
        XCTAssertEqual(try SyncState.localState(in: b.vault.location), .off)
        let joined = try await b.enable()
        XCTAssertEqual(joined.outcome, .joined)
        try await b.sync()
        try await a.sync()
        XCTAssertEqual(try a.labels, ["Mail:bob"], "local data went out after joining again")
    }

    /// Forgetting renames the state files: it waits for the sync that runs
    /// now, as another sync would, rather than rename them under it.
    func testForgettingTheLostStateWaitsForTheSyncThatRunsNow() async throws {
        try Data().write(to: syncFile)
        let location = b.vault.location
        let vault = b.vault
        let holds = Signal()
        let release = Signal()
        let forgetWaits = Signal()
        let holder = Task {
            try await SyncCoordinator(location: location).withRunLock {
                holds.fire()
                try await release.wait("the end of the other sync")
            }
        }
        try await holds.wait("the other sync's turn")
        let forget = Task.detached {
            try await SyncEngineStandingIssueTests.forgetLostState(vault, whenBusy: { forgetWaits.fire() })
        }
        try await forgetWaits.wait("forgetting finding the run lock busy")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: syncFile.path), "nothing is renamed while the other sync runs")
        release.fire()
        try await holder.value("the other sync")
        let aside = try await forget.value("forgetting the lost state")
        XCTAssertNotNil(aside)
        XCTAssertFalse(FileManager.default.fileExists(atPath: syncFile.path), "set aside once it was its turn")
    }

    /// Forgets a lost state the way `sync disable` does, through the service;
    /// returns the name it was set aside under.
    static func forgetLostState(
        _ vault: Vault, clock: any Clock = SystemClock(), whenBusy: () -> Void = {}
    ) async throws -> String? {
        let outcome = try await SyncService(vault: vault, remotes: .fixed(MemoryRemote()), clock: clock).disable(
            everywhere: false, deleteRemote: false, confirmDeletion: { _, _ in }, whenBusy: whenBusy)
        guard case .forgotLostState(let setAside, _) = outcome else {
            XCTFail("the lost state was not forgotten: \(outcome)")
            return nil
        }
        return setAside
    }

    func testASetupMadeBeforeTheSetupFileExistedGetsItAtTheNextLook() throws {
        let setupFile = SyncSetupFile.url(in: b.vault.location)
        try FileManager.default.removeItem(at: setupFile)
        XCTAssertNil(try SyncState.localState(in: b.vault.location).stateProblem)
        XCTAssertTrue(FileManager.default.fileExists(atPath: setupFile.path))
        XCTAssertEqual(SyncSetupFile.read(in: b.vault.location)?.device, try deviceID(b))
    }

    // MARK: - Live check and notice

    func testTheLiveCheckSeesADeletedOrEmptiedRemote() async throws {
        let local = try SyncState.localState(in: b.vault.location)
        let healthy = await SyncProbe.check(remote, vaultID: local.remoteVaultID)
        XCTAssertEqual(healthy, .reachable)
        try await a.disable(deleteRemote: true)
        // Believed once it opens with the key this device keeps.
        guard case .failed(let deleted) = await SyncProbe.check(remote, vaultID: local.remoteVaultID, keysFrom: b.vault)
        else {
            return XCTFail("a deleted remote passes the live check")
        }
        XCTAssertEqual(deleted.category, .remoteDeleted)
        XCTAssertEqual(
            SyncStatus.fold(events: [], local: local, probe: .failed(deleted), now: Date()).summary, .remoteDeleted)
        for object in remote.storedObjects.keys { remote.removeObject(object) }
        guard case .failed(let emptied) = await SyncProbe.check(remote, vaultID: local.remoteVaultID) else {
            return XCTFail("an emptied remote passes the live check")
        }
        XCTAssertEqual(emptied.category, .containerMissing)
    }

    func testTheNoticeIsWrittenWhileSyncHasAProblemAndRemovedOnceResolved() async throws {
        let location = b.vault.location
        let tampered = try await exportFromA("one")
        let original = try XCTUnwrap(remote.storedObjects[tampered])
        XCTAssertTrue(remote.corruptObject(tampered))
        try await b.sync()
        SyncNotice.update(try status(b), in: location)
        let notice = try XCTUnwrap(SyncNotice.current(in: location))
        XCTAssertTrue(notice.hasPrefix("sync: error: "), notice)
        XCTAssertEqual(SecureFile.mode(of: location.noticeFileURL.path), 0o600)
        remote.replaceObject(tampered, with: original)
        try await b.sync()
        SyncNotice.update(try status(b), in: location)
        XCTAssertNil(SyncNotice.current(in: location))
        XCTAssertFalse(FileManager.default.fileExists(atPath: location.noticeFileURL.path))
    }
}
