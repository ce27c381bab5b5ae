import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// Label clashes settled late: the settlement is stamped just after the value
/// it replaces, so a user's later change wins and every device stamps alike.
final class SyncEngineClashTests: SyncEngineTestCase {
    var a: SyncTestDevice!
    var b: SyncTestDevice!

    let low = UUID(uuidString: "00000000-0000-4000-8000-000000000001")
    let high = UUID(uuidString: "ffffffff-0000-4000-8000-000000000001")

    override func setUp() async throws {
        try await super.setUp()
        a = try device("a")
        b = try device("b")
        try await join(a, b)
    }

    func testALateSettlementKeepsTheUsersLaterRenameOnEveryDevice() async throws {
        let low = try XCTUnwrap(low)
        let high = try XCTUnwrap(high)
        try insert(a, low, "GitHub", "alice", secret: "JBSWY3DPEHPK3PXP")
        // B's account (the larger id, the one a clash renames) travels, then its user renames it.
        try insert(b, high, "GitHub", "alice", secret: "GEZDGNBVGY3TQOJQ")
        try await b.sync()
        try b.edit(high, AccountEdit(name: "work"))
        try await b.sync()
        // A meets the clash long after the rename, reading B's batches in order.
        a.clock.advance(by: 3_600)
        try await a.sync()
        try await b.sync()
        try await a.sync()
        for device in [a!, b!] {
            XCTAssertEqual(try device.labels, ["GitHub:alice", "GitHub:work"], device.name)
            XCTAssertEqual(try device.engine()?.pendingLocalChanges(), 0, device.name)
        }
        XCTAssertEqual(try a.fingerprint(), try b.fingerprint())
    }

    func testASettledRenameIsStampedAfterTheReplacedNameNotAtTheSettlingTime() async throws {
        let low = try XCTUnwrap(low)
        let high = try XCTUnwrap(high)
        // The settling device's own account has the larger id: it renames its local account.
        try insert(b, low, "GitHub", "alice", secret: "JBSWY3DPEHPK3PXP")
        try await b.sync()
        try insert(a, high, "GitHub", "alice", secret: "GEZDGNBVGY3TQOJQ")
        try await a.stampNow()
        let original = try XCTUnwrap(try a.clocks(of: high)?.clocks["name"])
        a.clock.advance(by: 3_600)
        try await a.sync()
        try await b.sync()
        for device in [a!, b!] {
            XCTAssertEqual(try device.labels, ["GitHub:alice", "GitHub:alice (ffffffff)"], device.name)
            XCTAssertEqual(try device.clocks(of: high)?.clocks["name"], original.settling(), device.name)
        }
        // A rename made afterwards, anywhere, wins.
        try b.edit(high, AccountEdit(name: "personal"))
        try await b.sync()
        try await a.sync()
        XCTAssertEqual(try a.labels, ["GitHub:alice", "GitHub:personal"])
    }

    func testDevicesThatSettleTheSameClashApartStampItAlike() async throws {
        let low = try XCTUnwrap(low)
        let high = try XCTUnwrap(high)
        try insert(a, low, "GitHub", "alice", secret: "JBSWY3DPEHPK3PXP")
        try insert(b, high, "GitHub", "alice", secret: "GEZDGNBVGY3TQOJQ")
        // A and B sync at the same time: neither sees the other's new batch (a shared
        // folder that delivers it late), so both labels reach the remote unsettled.
        let before = Set(remote.storedObjects.keys)
        try await a.sync()
        let fromA = remote.storedObjects.filter { !before.contains($0.key) }
        XCTAssertEqual(fromA.count, 1)
        for name in fromA.keys { remote.removeObject(name) }
        try await b.sync()
        for (name, data) in fromA { remote.replaceObject(name, with: data) }
        // Each settles the clash on its own, A on an incoming account, B on its local one, hours apart.
        a.clock.advance(by: 3_600)
        try await a.sync()
        b.clock.advance(by: 7_200)
        try await b.sync()
        for device in [a!, b!] { try await device.sync() }
        let reference = try XCTUnwrap(try a.clocks(of: high))
        XCTAssertEqual(reference.clocks["name"]?.device.hasSuffix("+clash"), true)
        XCTAssertEqual(try b.clocks(of: high)?.clocks, reference.clocks)
        XCTAssertEqual(try b.labels, ["GitHub:alice", "GitHub:alice (ffffffff)"])
        XCTAssertEqual(try a.fingerprint(), try b.fingerprint())
    }

    func testAMergedDuplicatesTombstoneIsStampedAfterItsLiveStateAndAgreesEverywhere() async throws {
        let low = try XCTUnwrap(low)
        let high = try XCTUnwrap(high)
        try insert(a, low, "Bank", "alice", secret: "JBSWY3DPEHPK3PXP")
        try insert(b, high, "Bank", "alice", secret: "JBSWY3DPEHPK3PXP")
        try await b.sync()
        try await a.stampNow()
        a.clock.advance(by: 3_600)
        try await a.sync()
        try await b.sync()
        let tombstone = try XCTUnwrap(try a.clocks(of: high)?.clocks["deleted"])
        XCTAssertTrue(tombstone.device.hasSuffix("+clash"))
        XCTAssertLessThan(tombstone.wall, a.clock.now().unixMilliseconds - 3_000_000, "not the settling time")
        for device in [a!, b!] {
            XCTAssertEqual(try device.vault.accounts().map(\.id), [low], device.name)
            XCTAssertEqual(try device.clocks(of: high)?.clocks["deleted"], tombstone, device.name)
        }
        // A restore made afterwards wins over the tombstone.
        try a.edit(low, AccountEdit(name: "alice (old)"))
        try a.restore(high)
        try await a.sync()
        try await b.sync()
        XCTAssertEqual(try b.labels, ["Bank:alice", "Bank:alice (old)"])
    }

    private func insert(_ device: SyncTestDevice, _ id: UUID, _ issuer: String, _ name: String, secret: String) throws {
        device.clock.advance(by: 1)
        _ = try device.vault.write(author: .cli) { writer in
            try writer.insert(AccountDraft(issuer: issuer, name: name, secret: try Base32.decode(secret)), id: id)
        }
    }
}

extension SyncTestDevice {
    /// Gives local changes their clocks now, as the next sync would.
    fileprivate func stampNow() async throws {
        let engine = try XCTUnwrap(try engine())
        try engine.resources.localStamp.stamp()
    }

    fileprivate func clocks(of id: UUID) throws -> SyncStore.ClockRecord? {
        let store = try XCTUnwrap(try SyncStore.openIfPresent(in: vault.location))
        return try store.read {
            try SyncStore.ClockRecord.fetchOne($0, key: ["entity": "account", "recordID": id.vaultString])
        }
    }
}
