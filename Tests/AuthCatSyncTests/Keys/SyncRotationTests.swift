import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// `SyncService.rotate` and the engine following the rotation chain: the
/// remaining devices take the new key at their next sync without a question,
/// the revoked one stops with `revoked`, and what it writes on is never taken.
final class SyncRotationTests: XCTestCase {
    var folder: URL!
    var remote: MemoryRemote!

    override func setUpWithError() throws {
        folder = try makeTemporaryFolder().url
        remote = MemoryRemote()
    }

    private var passphrase: SyncSecret { .passphrase(SecretBytes(utf8: SyncTestDevice.passphrase)) }

    private func threeDevices() async throws -> (SyncTestDevice, SyncTestDevice, SyncTestDevice) {
        let devices = (
            try SyncTestDevice("a", in: folder, remote: remote), try SyncTestDevice("b", in: folder, remote: remote),
            try SyncTestDevice("c", in: folder, remote: remote)
        )
        for device in [devices.0, devices.1, devices.2] {
            try await device.enable()
            try device.add(device.name.uppercased(), "\(device.name)@example.com")
        }
        for _ in 0..<2 {
            for device in [devices.0, devices.1, devices.2] { try await device.sync() }
        }
        return devices
    }

    private func deviceID(_ device: SyncTestDevice) throws -> String {
        try XCTUnwrap(try SyncStore.openIfPresent(in: device.vault.location)?.state()).deviceID
    }

    private func state(_ device: SyncTestDevice) throws -> SyncStore.StateRecord {
        try XCTUnwrap(try SyncStore.openIfPresent(in: device.vault.location)?.state())
    }

    func testTheRemainingDevicesAdoptTheNewKeyAndTheRevokedOneStopsKeepingItsAccounts() async throws {
        let (a, b, c) = try await threeDevices()
        let cID = try deviceID(c)
        let outcome = try await a.service().rotate(secret: passphrase, revoking: [cID])
        XCTAssertEqual(outcome.epoch, 1)
        XCTAssertEqual(outcome.revoked, [cID])
        XCTAssertGreaterThan(outcome.objectsRemoved, 0)
        XCTAssertEqual(
            outcome.exposedAccounts.map(\.issuer).sorted(), ["A", "B", "C"], "the checklist names every account")
        // Nothing of the old key is left: names of the old epoch are gone, the new generation is there.
        let names = Array(remote.storedObjects.keys)
        XCTAssertFalse(
            names.contains { RemoteLayout.parse($0).map { if case .batch = $0 { true } else { false } } ?? false })
        XCTAssertTrue(names.contains { $0.contains("/e-0000000001/") })

        try b.add("After", "rotation@example.com")
        try await b.sync()
        XCTAssertEqual(try state(b).keyEpoch, 1)
        try await a.sync()
        XCTAssertEqual(try a.labels.sorted(), try b.labels.sorted())
        XCTAssertTrue(try a.labels.contains { $0.contains("After") })

        let stopped = await syncError { try await c.sync() }
        XCTAssertEqual(stopped?.category, .revoked)
        XCTAssertTrue(try state(c).revoked)
        XCTAssertEqual(try c.vault.accounts().count, 3, "the revoked device keeps every local account")
        let status = try await c.service().status(probe: false, timeout: .seconds(1), keys: { nil })
        XCTAssertEqual(status.summary, .revoked)
        XCTAssertEqual(status.summary.exitCode, 9)
        XCTAssertNil(try c.engine(), "a revoked device never syncs again")
        let acknowledged = try await c.service().disable(
            everywhere: false, deleteRemote: false, confirmDeletion: { _, _ in })
        XCTAssertEqual(acknowledged, .acknowledgedStop)
        let after = try await c.service().status(probe: false, timeout: .seconds(1), keys: { nil })
        XCTAssertEqual(after.summary, .off)
    }

    /// A device offline through the rotation takes the new key at its next
    /// sync; what the revoked device wrote after its cut point under the old
    /// key (a batch and a "disabled everywhere" marker, by a copy of its files
    /// whose software ignores rotations) is never taken.
    func testWhatTheRevokedDeviceWritesAfterItsCutIsNotTaken() async throws {
        let (a, b, c) = try await threeDevices()
        let cID = try deviceID(c)
        let outcome = try await a.service().rotate(secret: passphrase, revoking: [cID])
        XCTAssertEqual(outcome.revoked, [cID])
        // The thief's copy of C, blind to the rotation, writes on under the old key.
        c.remote = BlindToRotations(remote)
        try c.add("Thief", "planted@example.com")
        try await c.sync()
        let oldFolder = RemoteLayout.folder(try state(c).remoteVaultID) + "/\(cID)/"
        XCTAssertTrue(remote.storedObjects.keys.contains { $0.hasPrefix(oldFolder) }, "the thief wrote on")
        try await c.disable(everywhere: true)
        // B was offline: it adopts now, reading the old epoch only up to the cut points.
        try await b.sync()
        XCTAssertEqual(try state(b).keyEpoch, 1)
        XCTAssertTrue(try state(b).enabled, "the old key's marker is not obeyed")
        XCTAssertFalse(try b.labels.contains { $0.contains("Thief") })
        try await a.sync()
        XCTAssertTrue(try state(a).enabled)
        XCTAssertFalse(try a.labels.contains { $0.contains("Thief") })
    }

    /// A device that already adopted the new epoch reads nothing of the old
    /// one again, and one that cannot prove a listed newer epoch writes nothing.
    func testANewerEpochThatCannotBeProvedStopsTheDeviceBeforeItWrites() async throws {
        let (a, b, _) = try await threeDevices()
        let bID = try deviceID(b)
        _ = try await a.service().rotate(secret: passphrase, revoking: [])
        let vaultID = try state(a).remoteVaultID
        // The remote lists epoch 2 (a planted object) with no record leading there.
        remote.replaceObject(
            EpochLayout.inEpoch(2, .batch(vault: vaultID, device: try deviceID(a), sequence: 1)), with: Data(count: 64))
        try b.add("Waiting", "w@example.com")
        let withheld = await syncError { try await b.sync() }
        XCTAssertEqual(withheld?.category, .integrity)
        XCTAssertEqual(try state(b).keyEpoch, 0, "nothing is adopted without a record")
        XCTAssertFalse(remote.storedObjects.keys.contains { $0.contains("/e-0000000001/\(bID)/") })
    }

    /// A device that joins while a rotation is being made (after it read the
    /// certificates, before its record) is certified by the authority the
    /// rotation replaces and receives no key: once the others adopt the new
    /// epoch they no longer list it as one of theirs, and it is told to join again.
    func testADeviceCertifiedOnlyByTheReplacedAuthorityIsNoLongerListed() async throws {
        let (a, b, _) = try await threeDevices()
        let late = try SyncTestDevice("late", in: folder, remote: remote)
        var listedBefore = false
        a.remote = BeforeRotationRecord(remote) {
            let joined = try await late.enable()
            try await b.sync()
            listedBefore = try b.service().devices().devices.contains { $0.id == joined.deviceID }
        }
        _ = try await a.service().rotate(secret: passphrase, revoking: [])
        let lateID = try deviceID(late)
        XCTAssertTrue(listedBefore, "the others read its certificate before the rotation")
        try await b.sync()
        try await b.sync()
        XCTAssertEqual(try state(b).keyEpoch, 1)
        XCTAssertFalse(
            try b.service().devices().devices.contains { $0.id == lateID },
            "certified by the old authority only, it holds no key of this epoch")
        let leftOut = await syncError { try await late.sync() }
        XCTAssertTrue(
            leftOut?.message.contains("while that rotation was under way") == true, "\(String(describing: leftOut))")
    }

    func testRotatingNeedsTheSecretAndAKnownDevice() async throws {
        let (a, _, _) = try await threeDevices()
        let wrong = await syncError {
            _ = try await a.service().rotate(secret: .passphrase(SecretBytes(utf8: "not it at all")), revoking: [])
        }
        XCTAssertEqual(wrong, .wrongPassphrase)
        do {
            _ = try await a.service().rotate(secret: passphrase, revoking: ["ffffffffffffffff"])
            XCTFail("an unknown device must not rotate")
        } catch {
            XCTAssertTrue("\(error)".contains("no device"), "\(error)")
        }
        XCTAssertEqual(try state(a).keyEpoch, 0)
    }
}

/// The remote as a thief's modified copy sees it: no rotation record and no
/// object of a later epoch is ever listed.
private struct BlindToRotations: RemoteWrapper {
    let base: any Remote
    init(_ base: MemoryRemote) { self.base = base }
    func list(prefix: String) async throws -> [RemoteObject] {
        try await base.list(prefix: prefix).filter { !$0.name.contains("/rotation-") && !$0.name.contains("/e-") }
    }
}

/// The remote of a device that rotates: `hook` runs once, just before the
/// rotation record is created, as if another device acted at that moment.
private final class BeforeRotationRecord: RemoteWrapper, @unchecked Sendable {
    let base: any Remote
    private var hook: (() async throws -> Void)?
    init(_ base: MemoryRemote, hook: @escaping () async throws -> Void) {
        self.base = base
        self.hook = hook
    }
    func create(_ name: String, data: Data) async throws -> Bool {
        if name.contains("/rotation-"), let hook {
            self.hook = nil
            try await hook()
        }
        return try await base.create(name, data: data)
    }
}
