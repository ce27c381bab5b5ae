import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import XCTest

@testable import AuthCatSync

final class KeyRotationTests: XCTestCase {
    let a = "aaaaaaaaaaaaaaaa"
    let b = "bbbbbbbbbbbbbbbb"
    let c = "cccccccccccccccc"

    func testRemainingDevicesTakeTheNewKeyWithoutASecretAndTheRevokedOneIsToldSo() async throws {
        let fixture = try await KeyedRemoteFixture()
        let prepared = try await fixture.rotate(by: a, revoking: [c])
        let forB = try await fixture.follow(b)
        XCTAssertEqual(forB.outcome.adoptedKeys?.masterKey, prepared.keys.masterKey)
        XCTAssertNotEqual(prepared.keys.masterKey, fixture.keys.masterKey)
        XCTAssertEqual(forB.outcome.adoptedPosition?.epoch, 1)
        XCTAssertEqual(forB.outcome.adoptedPosition?.authority, prepared.record.authorityPublicKey)
        let awaited1 = try await fixture.follow(a)
        XCTAssertEqual(awaited1.outcome.adoptedKeys?.masterKey, prepared.keys.masterKey)
        let awaited2 = try await fixture.follow(c)
        XCTAssertEqual(awaited2.outcome.revokedEpoch, 1)
        XCTAssertTrue(forB.conflicts.isEmpty)
        XCTAssertTrue(forB.rejected.isEmpty)
    }

    /// The manifest moves to the new epoch: the passphrase and the recovery
    /// key open the new key, a device that joins starts from the new record,
    /// and the revoked device's certificate is gone while the others' are
    /// re-issued by the new authority.
    func testThePassphraseAndRecoveryKeyOpenTheNewEpochAndCertificatesFollowTheAuthority() async throws {
        let fixture = try await KeyedRemoteFixture()
        let prepared = try await fixture.rotate(by: a, revoking: [c])
        let manifest = try await fixture.manifest()
        XCTAssertEqual(manifest.epoch, 1)
        XCTAssertEqual(manifest.rotation, ObjectHash.of(prepared.recordBytes))
        XCTAssertEqual(try manifest.unlock(with: fixture.passphrase).keys.masterKey, prepared.keys.masterKey)
        XCTAssertEqual(
            try manifest.unlock(with: .recoveryKey(SecretBytes(utf8: fixture.recoveryKey.formatted))).keys.masterKey,
            prepared.keys.masterKey)
        let rotation = try fixture.rotation(by: a)
        let certified = try await rotation.certifiedKeys(authority: prepared.record.authorityPublicKey)
        XCTAssertEqual(Set(certified.keys), [a, b])
        let awaited3 = try await rotation.certifiedKeys(authority: fixture.authority.publicKey)
        XCTAssertTrue(awaited3.isEmpty)
    }

    func testADeviceOfflineThroughTwoRotationsTakesTheNewestKey() async throws {
        let fixture = try await KeyedRemoteFixture()
        let first = try await fixture.rotate(by: a, revoking: [c])
        let awaited4 = try await fixture.follow(a)
        let afterFirst = try XCTUnwrap(awaited4.outcome.adoptedPosition)
        let second = try await fixture.rotate(by: a, from: afterFirst)
        let forB = try await fixture.follow(b)
        XCTAssertEqual(forB.outcome.adoptedPosition?.epoch, 2)
        XCTAssertEqual(forB.outcome.adoptedKeys?.masterKey, second.keys.masterKey)
        XCTAssertNotEqual(first.keys.masterKey, second.keys.masterKey)
        // Revoked at epoch 1, the thief's copy stays revoked whatever it finds later.
        let awaited5 = try await fixture.follow(c)
        XCTAssertEqual(awaited5.outcome.revokedEpoch, 1)
    }

    /// An old rotation record left on the remote (or put back) is never
    /// read again by a device past it, and a copy of it under a newer epoch's
    /// name does not decode as that epoch.
    func testAReplayedOldRotationIsIgnored() async throws {
        let fixture = try await KeyedRemoteFixture()
        let first = try await fixture.rotate(by: a)
        let awaited6 = try await fixture.follow(b)
        let position = try XCTUnwrap(awaited6.outcome.adoptedPosition)
        let again = try await fixture.follow(b, from: position)
        XCTAssertTrue(again.outcome.isCurrent)
        let replayName = first.recordName.replacingOccurrences(of: "rotation-0000000001", with: "rotation-0000000002")
        fixture.remote.replaceObject(replayName, with: first.recordBytes)
        let replayed = try await fixture.follow(b, from: position)
        XCTAssertEqual(replayed.outcome.withheld?.listed, 2)
        XCTAssertEqual(replayed.outcome.withheld?.proved, 1)
        XCTAssertEqual(replayed.rejected.map(\.name), [replayName])
    }

    /// The thief holds device C's files: its box key and the old master key,
    /// but no passphrase. It signs a rotation with a key of its own, sealing a
    /// key it knows to B's public key (which the remote lists): B takes none of it.
    func testAForgedRotationSealedToADevicesPublicKeyIsRejected() async throws {
        let fixture = try await KeyedRemoteFixture()
        let thiefAuthority = try AuthorityKey.generate()
        let thiefKey = try SyncKeys.generate()
        let record = try RotationRecord.make(
            vault: fixture.vaultID, epoch: 1, previous: "", by: c, masterKey: thiefKey.masterKey,
            recipients: [
                RotationRecord.Recipient(
                    device: b, boxPublicKey: try XCTUnwrap(fixture.devices[b]).boxKeyPair.publicKey)
            ],
            revoked: [a], cuts: [], nextAuthority: thiefAuthority, manifestKey: try SecretBytes.random(count: 32),
            newWraps: nil,
            signer: thiefAuthority, at: fixture.clock.now())
        let bytes = try record.encoded()
        let name = EpochLayout.rotation(fixture.vaultID, epoch: 1, storedBytes: bytes)
        let awaited7 = try await fixture.remote.create(name, data: bytes)
        XCTAssertTrue(awaited7)
        let forB = try await fixture.follow(b)
        XCTAssertNil(forB.outcome.adoptedKeys)
        XCTAssertEqual(forB.outcome.withheld?.listed, 1)
        XCTAssertEqual(forB.rejected.first?.name, name)
        // Nor can it revoke the honest rotator.
        let awaited8 = try await fixture.follow(a)
        XCTAssertNil(awaited8.outcome.revokedEpoch)
        // The honest rotation still goes through beside the forged one, and everyone takes it.
        let honest = try await fixture.rotate(by: a, revoking: [c])
        let awaited9 = try await fixture.follow(b)
        XCTAssertEqual(awaited9.outcome.adoptedKeys?.masterKey, honest.keys.masterKey)
    }

    /// A record the authority signed for epoch 1 does not pass for epoch 2:
    /// epoch 2 must be signed by the authority epoch 1 named, and chain to it.
    func testARotationSignedByAnOldAuthorityAfterItWasReplacedIsRejected() async throws {
        let fixture = try await KeyedRemoteFixture()
        try await fixture.rotate(by: a)
        let awaited10 = try await fixture.follow(b)
        let position = try XCTUnwrap(awaited10.outcome.adoptedPosition)
        // Someone who kept the old authority (an old manifest and the old passphrase) signs epoch 2 with it.
        let stale = try RotationRecord.make(
            vault: fixture.vaultID, epoch: 2, previous: position.recordHash, by: c,
            masterKey: try SecretBytes.random(count: 32),
            recipients: [
                RotationRecord.Recipient(
                    device: b, boxPublicKey: try XCTUnwrap(fixture.devices[b]).boxKeyPair.publicKey)
            ],
            revoked: [], cuts: [], nextAuthority: fixture.authority, manifestKey: fixture.manifestKey, newWraps: nil,
            signer: fixture.authority, at: fixture.clock.now())
        let bytes = try stale.encoded()
        try await fixture.remote.put(EpochLayout.rotation(fixture.vaultID, epoch: 2, storedBytes: bytes), data: bytes)
        let result = try await fixture.follow(b, from: position)
        XCTAssertEqual(result.outcome.withheld?.proved, 1)
        XCTAssertEqual(result.rejected.count, 1)
    }

    /// Two rotations to one epoch (two devices at once on storage whose
    /// create-only is not global): every device takes the same one and reports both.
    func testTwoRotationsAtOneEpochAreResolvedTheSameWayEverywhere() async throws {
        let fixture = try await KeyedRemoteFixture()
        let boxKeys = try await fixture.boxKeys()
        let first = try await fixture.rotation(by: a).prepare(
            secret: fixture.passphrase, position: fixture.origin, devices: [a, b, c], boxKeys: boxKeys, revoking: [],
            cuts: [])
        let second = try await fixture.rotation(by: b).prepare(
            secret: fixture.passphrase, position: fixture.origin, devices: [a, b, c], boxKeys: boxKeys, revoking: [c],
            cuts: [])
        try await fixture.rotation(by: a).publish(first)
        try await fixture.rotation(by: b).publish(second)
        let winner = [first, second].min { $0.recordName < $1.recordName }
        var taken: [Data] = []
        for device in [a, b] {
            let result = try await fixture.follow(device)
            XCTAssertEqual(result.conflicts, [1])
            taken.append(try XCTUnwrap(result.outcome.adoptedKeys).masterKey.unprotectedData())
        }
        XCTAssertEqual(taken, Array(repeating: try XCTUnwrap(winner).keys.masterKey.unprotectedData(), count: 2))
    }

    /// The remote lists a newer epoch (its objects) but hides the record: the
    /// device learns from the names alone that it must stop writing.
    func testAWithheldRotationStopsTheDeviceAtItsEpoch() async throws {
        let fixture = try await KeyedRemoteFixture()
        let prepared = try await fixture.rotate(by: a, revoking: [c])
        fixture.remote.removeObject(prepared.recordName)
        fixture.remote.replaceObject(
            EpochLayout.inEpoch(1, .batch(vault: fixture.vaultID, device: a, sequence: 1)), with: Data(count: 512))
        let result = try await fixture.follow(b)
        XCTAssertEqual(result.outcome.withheld?.listed, 1)
        XCTAssertEqual(result.outcome.withheld?.proved, 0)
        // The revoked device is stopped too: it cannot tell a withheld record from none, and writes nothing new.
        let awaited11 = try await fixture.follow(c)
        XCTAssertNotNil(awaited11.outcome.withheld)
    }

    /// A device whose key was never certified (it joined before certificates)
    /// is neither given the key nor revoked: it must type the passphrase again.
    func testAnUncertifiedDeviceIsLeftOutNotRevoked() async throws {
        var fixture = try await KeyedRemoteFixture()
        let legacy = "dddddddddddddddd"
        fixture.devices[legacy] = try DeviceKeys.generate()
        let prepared = try await fixture.rotate(by: a)
        XCTAssertEqual(prepared.leftOut, [legacy])
        guard case .leftOut(let epoch) = try await fixture.follow(legacy).outcome else {
            return XCTFail("the uncertified device should be left out")
        }
        XCTAssertEqual(epoch, 1)
    }

    func testRotatingNeedsTheSecretAndTheDevicesCurrentEpoch() async throws {
        let fixture = try await KeyedRemoteFixture()
        let rotation = try fixture.rotation(by: a)
        do {
            _ = try await rotation.prepare(
                secret: .passphrase(SecretBytes(utf8: "not the passphrase")), position: fixture.origin,
                devices: [a, b], boxKeys: try await fixture.boxKeys(), revoking: [], cuts: [])
            XCTFail("a wrong passphrase must not rotate")
        } catch {
            XCTAssertEqual(error as? SyncError, .wrongPassphrase)
        }
        try await fixture.rotate(by: a)
        do {
            _ = try await rotation.prepare(
                secret: fixture.passphrase, position: fixture.origin, devices: [a, b],
                boxKeys: try await fixture.boxKeys(), revoking: [], cuts: [])
            XCTFail("a device behind the remote's epoch must not rotate")
        } catch {
            XCTAssertTrue("\(error)".contains("another key epoch"), "\(error)")
        }
    }

    func testOldEpochObjectsAreRemovedAndKeyObjectsKept() async throws {
        let fixture = try await KeyedRemoteFixture()
        let vault = fixture.vaultID
        for name in [
            RemoteLayout.batch(vault, device: b, sequence: 1), RemoteLayout.snapshot(vault, device: b, sequence: 1),
            RemoteLayout.disabledMarker(vault, generation: 1), RemoteLayout.legacyDisabledMarker(vault),
        ] {
            fixture.remote.replaceObject(name, with: Data(count: 512))
        }
        let prepared = try await fixture.rotate(by: a)
        let newBatch = EpochLayout.inEpoch(1, .batch(vault: vault, device: a, sequence: 1))
        fixture.remote.replaceObject(newBatch, with: Data(count: 512))
        let removed = try await fixture.rotation(by: a).removeObjects(before: 1)
        XCTAssertEqual(removed, 4)
        XCTAssertEqual(
            Set(fixture.remote.storedObjects.keys),
            Set([
                RemoteLayout.manifest(vault), prepared.recordName, newBatch, EpochLayout.deviceKey(vault, device: a),
                EpochLayout.deviceKey(vault, device: b), EpochLayout.deviceKey(vault, device: c),
            ]))
    }
}
