import AuthCatCore
import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatSync

extension XCTestCase {
    /// One scenario for every real remote: a batch tampered with is rejected and
    /// blocks what follows, is not read again while unchanged, is read again
    /// once put back with the same size (the remote tells it changed: the
    /// folder's inode and change time, an ETag), and the live check notices a
    /// remote emptied of everything.
    func checkTamperRepairAndVanish(folder: URL, remote: any Remote) async throws {
        let (a, b, vaultID, first, original) = try await twoDevicesAndAFirstBatch(folder: folder, remote: remote)
        try a.add("Site", "two")
        try await a.sync()
        var tampered = original
        tampered[tampered.startIndex + 100] ^= 0x01
        try await remote.put(first, data: tampered)

        func status() throws -> SyncStatus {
            SyncStatus.fold(
                events: b.events.events, local: try SyncState.localState(in: b.vault.location), probe: nil,
                now: b.clock.now())
        }
        let rejected = try await b.sync()
        XCTAssertEqual(rejected.issues.map(\.kind), [.rejected, .blocked])
        XCTAssertEqual(try status().summary, .error)
        let skipped = try await b.sync()
        XCTAssertEqual(skipped.issues.map(\.kind), [.blocked], "not read again while unchanged")

        try await remote.put(first, data: original)
        let repaired = try await b.sync()
        XCTAssertEqual(repaired.issues, [])
        XCTAssertEqual(try b.labels, ["Site:one", "Site:two"])
        XCTAssertEqual(try status().summary, .succeeded)

        for object in try await remote.list(prefix: "") { try await remote.delete(object.name) }
        guard case .failed(let failure) = await SyncProbe.check(remote, vaultID: vaultID) else {
            return XCTFail("the live check passes an emptied remote")
        }
        XCTAssertEqual(failure.category, .containerMissing)
    }

    /// Devices a and b joined to `remote`, a having synced the account
    /// Site:one in its first batch: the remote vault's id, and that batch's
    /// name and bytes, for a test to damage and put back.
    func twoDevicesAndAFirstBatch(
        folder: URL, remote: any Remote
    ) async throws -> (a: SyncTestDevice, b: SyncTestDevice, vaultID: String, batch: String, original: Data) {
        let a = try SyncTestDevice("a", in: folder, remote: remote)
        let b = try SyncTestDevice("b", in: folder, remote: remote)
        let vaultID = try await a.enable().remoteVaultID
        try await b.enable()
        try a.add("Site", "one")
        try await a.sync()
        let device = try XCTUnwrap(SyncStore.openIfPresent(in: a.vault.location)?.state()?.deviceID)
        let batch = RemoteLayout.batch(vaultID, device: device, sequence: 1)
        let fetched = try await remote.get(batch)
        return (a, b, vaultID, batch, try XCTUnwrap(fetched))
    }
}
