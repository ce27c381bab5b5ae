import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// Compaction: only on request (`compact`), never inside an ordinary sync,
/// except as a repair after this device's objects were lost.
final class SyncEngineCompactionTests: SyncEngineTestCase {
    var a: SyncTestDevice!

    override func setUp() async throws {
        try await super.setUp()
        a = try device("a")
    }

    private func addAccounts(_ count: Int) throws {
        try a.vault.write(author: .import) { writer in
            for index in 0..<count {
                try writer.insert(
                    AccountDraft(
                        issuer: "Issuer \(index)", name: "user\(index)@example.com",
                        secret: SecretBytes(Array(repeating: UInt8(index % 256), count: 20))))
            }
        }
    }

    /// Remote object names of `device`'s batches and snapshots.
    private func objects(of device: SyncTestDevice) throws -> (batches: [String], snapshots: [String]) {
        let id = try deviceID(device)
        let names = remote.storedObjects.keys.filter { $0.contains("/\(id)/") }.sorted()
        return (names.filter { $0.contains("/b-") }, names.filter { $0.contains("/s-") })
    }

    /// One account edited and synced `count` times.
    private func editAndSync(_ count: Int, _ id: UUID) async throws {
        for index in 0..<count {
            try a.edit(id, AccountEdit(note: "edit \(index)"))
            try await a.sync()
        }
    }

    func testIncrementalSyncsOfALargeVaultStaySmallPastTheThresholdAndCompactRemovesTheirBatches() async throws {
        try addAccounts(1_000)
        try await a.enable()
        try await a.sync()
        let accounts = try a.vault.accounts()
        let rounds = Int(SyncReport.compactionThreshold) + 6
        for index in 0..<rounds {
            try a.edit(accounts[index].id, AccountEdit(note: "edit \(index)"))
            let report = try await a.sync()
            XCTAssertEqual(report.exportedChanges, 1)
            XCTAssertLessThanOrEqual(report.objectsWritten, 2, "sync \(index)")
            XCTAssertLessThan(report.bytesWritten, 4096, "sync \(index)")
            XCTAssertFalse(report.snapshotWritten, "sync \(index)")
            XCTAssertEqual(report.objectsRemoved, 0)
            XCTAssertEqual(report.batchesSinceSnapshot, Int64(index) + 2, "the first sync's batch and one per round")
        }
        XCTAssertEqual(try objects(of: a).snapshots, [])
        XCTAssertTrue(try XCTUnwrap(a.engine()).status().compactionDue)

        let report = try await XCTUnwrap(a.engine()).compact()
        XCTAssertTrue(report.snapshotWritten)
        XCTAssertEqual(report.objectsWritten, 1, "one snapshot, no batch: nothing was pending")
        XCTAssertEqual(report.objectsRemoved, rounds + 1)
        XCTAssertEqual(report.batchesSinceSnapshot, 0)
        XCTAssertEqual(try objects(of: a).batches, [], "the batches the snapshot covers are gone")
        XCTAssertEqual(try objects(of: a).snapshots.count, 1)
        XCTAssertEqual(try XCTUnwrap(a.engine()).status().batchesSinceSnapshot, 0)

        let b = try SyncTestDevice("b", in: folder, remote: remote)
        try await b.enable()
        remote.resetCounts()
        let joined = try await b.sync()
        XCTAssertEqual(
            remote.counts.get, 2, "one snapshot instead of \(rounds + 1) batches, and a's certificate (read once)")
        XCTAssertEqual(joined.issues, [])
        XCTAssertEqual(try b.fingerprint(), try a.fingerprint())
    }

    func testANewDeviceConvergesAfterCompactionAndLaterBatchesFollowTheSnapshot() async throws {
        let account = try a.add("GitHub", "alice")
        try await a.enable()
        try await editAndSync(5, account.id)
        let b = try SyncTestDevice("b", in: folder, remote: remote)
        try await b.enable()
        try await b.sync()
        try await editAndSync(3, account.id)
        _ = try await XCTUnwrap(a.engine()).compact()

        let c = try SyncTestDevice("c", in: folder, remote: remote)
        try await c.enable()
        for device in [b, c] {
            let report = try await device.sync()
            XCTAssertEqual(report.issues, [], device.name)
            XCTAssertEqual(try device.vault.account(id: account.id)?.note, "edit 2", device.name)
        }
        try a.edit(account.id, AccountEdit(note: "after the snapshot"))
        try await a.sync()
        for device in [b, c] {
            try await device.sync()
            XCTAssertEqual(try device.fingerprint(), try a.fingerprint(), device.name)
        }
    }

    func testCompactPullsAndPushesFirstAndWritesNothingWhenAlreadyCompact() async throws {
        let account = try a.add("GitHub", "alice")
        try await a.enable()
        try await a.sync()
        let b = try SyncTestDevice("b", in: folder, remote: remote)
        try await b.enable()
        try b.add("Mail", "bob")
        try await b.sync()
        try a.edit(account.id, AccountEdit(note: "pending"))

        let report = try await XCTUnwrap(a.engine()).compact()
        XCTAssertEqual(report.importedChanges, 1)
        XCTAssertEqual(report.exportedChanges, 1)
        XCTAssertTrue(report.snapshotWritten)
        XCTAssertEqual(try objects(of: a).batches, [])
        try await b.sync()
        XCTAssertEqual(try b.fingerprint(), try a.fingerprint())

        remote.resetCounts()
        let again = try await XCTUnwrap(a.engine()).compact()
        XCTAssertFalse(again.snapshotWritten)
        XCTAssertEqual(remote.counts, RemoteRequestCounts(list: 1), "nothing new: one listing, as a plain sync")
    }

    func testAnOrdinarySyncStillWritesARepairSnapshotWhenThisDevicesObjectsWereLost() async throws {
        let account = try a.add("GitHub", "alice")
        try await a.enable()
        try await editAndSync(3, account.id)
        let newest = try XCTUnwrap(objects(of: a).batches.last)
        remote.removeObject(newest)

        let report = try await a.sync()
        XCTAssertEqual(report.chainWarnings.map(\.kind), [.rollback])
        XCTAssertTrue(report.snapshotWritten, "the other devices step over the hole")
        let b = try SyncTestDevice("b", in: folder, remote: remote)
        try await b.enable()
        let joined = try await b.sync()
        XCTAssertEqual(joined.issues, [])
        XCTAssertEqual(try b.vault.account(id: account.id)?.note, "edit 2")
    }
}
