import AuthCatEssentials
import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatSync

/// Issue 20 §3: the built programs against rotation records an attacker
/// writes to a folder remote. The attacker knows what the remote shows (every
/// device's public key) and what a stolen device holds (the master key), but
/// not the sync passphrase. Devices A and B share the remote; B is the target.
final class RotationAttackTests: TwoDevicesFaultTestCase {
    private var remote: FolderRemote!

    override func setUpWithError() throws {
        try super.setUpWithError()
        remote = try FolderRemote(path: remoteFolder.path)
        waitForStragglers(under: a.path, timeout: 30)
        waitForStragglers(under: b.path, timeout: 30)
    }

    /// B's certified public key, as anyone who reads the remote sees it.
    private func publicKeys() async throws -> [String: Data] {
        var keys: [String: Data] = [:]
        for object in try await remote.list(prefix: RemoteLayout.folder(vaultID) + "/key-") {
            guard let data = try await remote.get(object.name),
                let certificate = try? JSONDecoder().decode(DeviceCertificate.self, from: data)
            else { continue }
            keys[certificate.device] = certificate.boxPublicKey
        }
        return keys
    }

    private func labels(_ home: URL) throws -> [String] {
        try listed(home).map { "\($0.issuer):\($0.name)" }.sorted()
    }

    /// A rotation signed by a key of the attacker's own, sealing a master key
    /// it knows to every device's public key (revoking none, then A): no
    /// device adopts it; each stops writing while it stands unproved; the
    /// honest rotation beside it is adopted, and the attacker's key opens
    /// nothing written after it.
    func testAForgedRotationSealedToPublicKeysIsNeverAdopted() async throws {
        let keys = try await publicKeys()
        let forger = try AuthorityKey.generate()
        let known = try SyncKeys.generate()
        let record = try RotationRecord.make(
            vault: vaultID, epoch: 1, previous: "", by: keys.keys.sorted()[0], masterKey: known.masterKey,
            recipients: keys.map { RotationRecord.Recipient(device: $0.key, boxPublicKey: $0.value) },
            revoked: [], cuts: [], nextAuthority: forger, manifestKey: try SecretBytes.random(count: 32), newWraps: nil,
            signer: forger, at: Date())
        let bytes = try record.encoded()
        let name = EpochLayout.rotation(vaultID, epoch: 1, storedBytes: bytes)
        let created = try await remote.create(name, data: bytes)
        XCTAssertTrue(created)

        try add(b, "bob", issuer: "B", environment: environment)
        waitForStragglers(under: b.path, timeout: 30)
        let stopped = try run(b, ["sync", "now"], environment: environment)
        XCTAssertNotEqual(stopped.termination, .exited(0))
        XCTAssertTrue(stopped.stderr.contains("no rotation record this device can check"), stopped.stderr)
        let written = try await remote.list(prefix: RemoteLayout.folder(vaultID) + "/e-")
        XCTAssertTrue(written.isEmpty, "nothing is written under the forged key: \(written.map(\.name))")

        // The honest rotation, beside the forged one; B takes it and syncs under it.
        try succeed(a, ["sync", "rotate", "--yes"], environment: environment)
        _ = try run(b, ["sync", "now"], environment: environment)
        _ = try run(a, ["sync", "now"], environment: environment)
        XCTAssertEqual(try labels(a), ["A:alice", "B:bob"])
        for object in try await remote.list(prefix: RemoteLayout.folder(vaultID) + "/e-") {
            let stored = try await remote.get(object.name)
            let data = try XCTUnwrap(stored)
            guard case .epochObject(_, _, let inner) = EpochLayout.parse(object.name),
                case .batch(_, let device, _) = inner
            else { continue }
            XCTAssertThrowsError(
                try SealedObject.open(data, key: known.objectKey, vault: vaultID, device: device, name: object.name),
                "the forger's key opens nothing written after the rotation")
        }
    }

    /// The honest first rotation copied under the name of the next epoch (a
    /// replay): B, already past it, stops writing and adopts nothing.
    func testAReplayedOldRotationIsIgnored() async throws {
        try succeed(a, ["sync", "rotate", "--yes"], environment: environment)
        try succeed(b, ["sync", "now"], environment: environment)
        let records = try await remote.list(prefix: EpochLayout.rotationPrefix(vaultID))
        let first = try XCTUnwrap(records.first?.name)
        let stored = try await remote.get(first)
        let bytes = try XCTUnwrap(stored)
        let replay = first.replacingOccurrences(of: "rotation-0000000001", with: "rotation-0000000002")
        _ = try await remote.create(replay, data: bytes)
        let before = try await remote.list(prefix: RemoteLayout.folder(vaultID) + "/e-").map(\.name)
        try add(b, "bob", issuer: "B", environment: environment)
        waitForStragglers(under: b.path, timeout: 30)
        let stopped = try run(b, ["sync", "now"], environment: environment)
        XCTAssertNotEqual(stopped.termination, .exited(0))
        let after = try await remote.list(prefix: RemoteLayout.folder(vaultID) + "/e-").map(\.name)
        XCTAssertEqual(after, before, "nothing is written while a newer epoch is listed but not proved")
        _ = try run(a, ["sync", "now"], environment: environment)
        XCTAssertFalse(try labels(a).contains("B:bob"))
    }
}
