import AuthCatEssentials
import AuthCatTestSupport
import Foundation
import XCTest

@testable import AuthCatSync

/// Issue 32 §1, against the built programs: after `sync passphrase change`,
/// whoever holds the old passphrase and a copy of anything the remote held
/// before opens nothing written afterwards, and no device goes back to an
/// older manifest put back on the remote. Devices A and B share a folder remote.
final class PassphraseLeakTests: TwoDevicesFaultTestCase {
    private static let newPassphrase = "the passphrase after the leak"

    private var newPassphraseFile: URL { scratch.appendingPathComponent("new-passphrase") }
    private var manifestFile: URL { vaultFolder.appendingPathComponent("manifest") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try write(Self.newPassphrase + "\n", to: newPassphraseFile)
        waitForStragglers(under: a.path, timeout: 30)
        waitForStragglers(under: b.path, timeout: 30)
    }

    private func changePassphrase(_ options: [String] = []) throws {
        try succeed(
            a, ["sync", "passphrase", "change", "--keep-joined"] + options,
            environment: environment.merging(["AUTHCAT_NEW_SYNC_PASSPHRASE_FILE": newPassphraseFile.path]) { $1 })
    }

    private func statusJSON(_ home: URL) throws -> (status: Int32, json: [String: Any]) {
        let result = try run(home, ["sync", "status", "--json"], environment: environment)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        guard case .exited(let status) = result.termination else { return (-1, json) }
        return (status, json)
    }

    func testAnOldManifestPutBackIsARollbackOnEveryDeviceAndJoinsNoOne() throws {
        try oldManifestPutBack(options: [])
    }

    func testAnOldManifestPutBackAfterANewRecoveryKeyIsARollbackOnEveryDeviceAndJoinsNoOne() throws {
        try oldManifestPutBack(options: ["--new-recovery-key", "--recovery-key-file", scratch.path + "/new-key"])
    }

    private func oldManifestPutBack(options: [String]) throws {
        let oldManifest = try Data(contentsOf: manifestFile)
        try changePassphrase(options)
        try succeed(b, ["sync", "now"], environment: environment)
        let newManifest = try Data(contentsOf: manifestFile)
        try oldManifest.write(to: manifestFile)

        for device in [a!, b!] {
            _ = try run(device, ["sync", "now"], environment: environment)
            let (status, json) = try statusJSON(device)
            XCTAssertEqual(status, 4, "\(json)")
            XCTAssertTrue("\(json)".contains("a rollback of the manifest"), "\(json)")
        }
        // A new device with the old passphrase: the old manifest opens, but the
        // rotation that follows it does not, and it joins nothing.
        let thief = makeHome("thief")
        let old = try run(thief, ["sync", "enable", "--remote", remoteURL], environment: environment)
        XCTAssertEqual(old.termination, .exited(1), old.stderr)
        XCTAssertTrue(old.stderr.contains("replaced by a newer one"), old.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: thief.appendingPathComponent("sync.sqlite").path))
        XCTAssertEqual(try Data(contentsOf: manifestFile), oldManifest, "a refused join writes nothing")

        // Put right, the report ends on both devices.
        try newManifest.write(to: manifestFile)
        for device in [a!, b!] {
            try succeed(device, ["sync", "now"], environment: environment)
            XCTAssertEqual(try statusJSON(device).status, 0)
        }
    }

    /// The old manifest put back and the record of the change hidden: the old
    /// passphrase opens the manifest, but the listing shows a newer epoch that
    /// nothing leads to, and the device refuses to join an older one.
    func testAJoinRefusesAnOlderEpochThanTheListingShows() throws {
        let oldManifest = try Data(contentsOf: manifestFile)
        try changePassphrase()
        try oldManifest.write(to: manifestFile)
        let records = try FileManager.default.contentsOfDirectory(atPath: vaultFolder.path)
            .filter { $0.hasPrefix("rotation-") }
        XCTAssertEqual(records.count, 1)
        for record in records { try FileManager.default.removeItem(at: vaultFolder.appendingPathComponent(record)) }
        let late = makeHome("late")
        let refused = try run(late, ["sync", "enable", "--remote", remoteURL], environment: environment)
        XCTAssertEqual(refused.termination, .exited(1), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("lists key epoch 1"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("nothing was set up"), refused.stderr)
    }

    /// An offline reader with the old passphrase and a copy of the whole
    /// remote as it was before the change tries every key wrapped afterwards
    /// and every object sealed afterwards: nothing opens.
    func testTheOldPassphraseWithACopyOfTheOldRemoteOpensNothingWrittenAfterwards() async throws {
        let copy = scratch.appendingPathComponent("copy-before-the-change")
        try FileManager.default.copyItem(at: remoteFolder, to: copy)
        try changePassphrase()
        try add(b, "bob", issuer: "B", environment: environment)
        waitForStragglers(under: b.path, timeout: 30)
        try succeed(b, ["sync", "now"], environment: environment)

        let oldPassphrase = SyncSecret.passphrase(SecretBytes(utf8: Self.passphrase))
        let oldRemote = try FolderRemote(path: copy.path)
        let old = try await StoredManifest.read(from: oldRemote, vaultID: vaultID).0.unlock(
            with: oldPassphrase, on: oldRemote)
        let oldOpened = try XCTUnwrap(old.version2)
        let remote = try FolderRemote(path: remoteFolder.path)
        let (stored, _) = try await StoredManifest.read(from: remote, vaultID: vaultID)
        guard case .version2(let manifest) = stored else { return XCTFail("a version 3 manifest") }
        XCTAssertThrowsError(try manifest.unlock(with: oldPassphrase))
        XCTAssertThrowsError(try manifest.unlock(manifestKey: oldOpened.manifestKey))
        let current = try manifest.unlock(with: .passphrase(SecretBytes(utf8: Self.newPassphrase)))

        var recordsTried = 0
        var objectsTried = 0
        for object in try await remote.list(prefix: RemoteLayout.folder(vaultID) + "/") {
            let stored = try await remote.get(object.name)
            let data = try XCTUnwrap(stored)
            switch EpochLayout.parse(object.name) {
            case .rotation:
                let record = try RotationRecord.decode(data, name: object.name, vault: vaultID)
                XCTAssertThrowsError(try record.unwrap(manifestKey: oldOpened.manifestKey), object.name)
                if let wraps = record.manifestKey {
                    XCTAssertThrowsError(try wraps.openManifestKey(with: oldPassphrase, vaultID: vaultID))
                }
                recordsTried += 1
            case .epochObject(_, _, .batch(_, let device, _)), .epochObject(_, _, .snapshot(_, let device, _)):
                XCTAssertThrowsError(
                    try SealedObject.open(
                        data, key: oldOpened.keys.objectKey, vault: vaultID, device: device, name: object.name),
                    object.name)
                // The same object opens with the new keys: the test could fail.
                XCTAssertNoThrow(
                    try SealedObject.open(
                        data, key: current.keys.objectKey, vault: vaultID, device: device, name: object.name),
                    object.name)
                objectsTried += 1
            default: continue
            }
        }
        XCTAssertEqual(recordsTried, 1)
        XCTAssertGreaterThan(objectsTried, 0)
    }

    /// A device the holder of a leaked passphrase joined is named by the
    /// change and revoked in the same step; a later rotation does not call it
    /// "left out", and it reads nothing written afterwards.
    func testADeviceJoinedWithTheLeakedPassphraseIsNamedAndRevokedInTheSameStep() throws {
        let thief = makeHome("thief")
        try succeed(
            thief, ["sync", "enable", "--remote", remoteURL, "--device-name", "spare-laptop"],
            environment: environment)
        let own = try run(thief, ["sync", "devices", "--json"], environment: environment)
        let devices = try JSONSerialization.jsonObject(with: Data(own.stdout.utf8)) as? [[String: Any]] ?? []
        let thiefID = try XCTUnwrap(devices.first { $0["this_device"] as? Bool == true }?["id"] as? String)
        try succeed(a, ["sync", "now"], environment: environment)
        // In a script, a device joined since is never kept by default: nothing changes until each is named.
        let manifestBefore = try Data(contentsOf: manifestFile)
        let unnamed = try run(
            a, ["sync", "passphrase", "change"],
            environment: environment.merging(["AUTHCAT_NEW_SYNC_PASSPHRASE_FILE": newPassphraseFile.path]) { $1 })
        XCTAssertEqual(unnamed.termination, .exited(1), unnamed.stderr)
        XCTAssertTrue(unnamed.stderr.contains("The passphrase was not changed"), unnamed.stderr)
        XCTAssertTrue(unnamed.stderr.contains(thiefID), unnamed.stderr)
        XCTAssertEqual(try Data(contentsOf: manifestFile), manifestBefore)
        let changed = try run(
            a, ["sync", "passphrase", "change", "--revoke", thiefID, "--keep-joined"],
            environment: environment.merging(["AUTHCAT_NEW_SYNC_PASSPHRASE_FILE": newPassphraseFile.path]) { $1 })
        XCTAssertEqual(changed.termination, .exited(0), changed.stderr)
        XCTAssertTrue(changed.stderr.contains("joined since the sync passphrase was last set"), changed.stderr)
        XCTAssertTrue(changed.stderr.contains(thiefID), changed.stderr)
        XCTAssertTrue(changed.stdout.contains("revoked:"), changed.stdout)
        XCTAssertTrue(changed.stdout.contains("the new key was sealed to:"), changed.stdout)

        try add(a, "carol", issuer: "A", environment: environment)
        waitForStragglers(under: a.path, timeout: 30)
        try succeed(a, ["sync", "now"], environment: environment)
        let stopped = try run(thief, ["sync", "now"], environment: environment)
        XCTAssertNotEqual(stopped.termination, .exited(0))
        XCTAssertFalse(try listed(thief).contains { $0.name == "carol" })

        // The next change lists nobody new, and a rotation leaves no revoked device "left out".
        let next = try run(
            a, ["sync", "passphrase", "change"],
            environment: [
                "AUTHCAT_SYNC_PASSPHRASE_FILE": newPassphraseFile.path,
                "AUTHCAT_NEW_SYNC_PASSPHRASE_FILE": newPassphraseFile.path,
            ])
        XCTAssertEqual(next.termination, .exited(0), next.stderr)
        XCTAssertFalse(next.stderr.contains("joined since"), next.stderr)
        let rotated = try run(
            a, ["sync", "rotate", "--yes", "--json"],
            environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": newPassphraseFile.path])
        XCTAssertEqual(rotated.termination, .exited(0), rotated.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(rotated.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(json?["left_out"] as? [String], [])
        XCTAssertEqual((json?["recipients"] as? [[String: Any]])?.count, 2, rotated.stdout)
    }

    /// What whoever holds the passphrase before the change opens: the manifest key and the authority.
    private func leakedAuthority() async throws -> (manifest: KeyManifest, opened: KeyManifest.Unlocked) {
        let manifest = try KeyManifest.decode(Data(contentsOf: manifestFile), expectedVaultID: vaultID)
        return (manifest, try manifest.unlock(with: .passphrase(SecretBytes(utf8: Self.passphrase))))
    }

    /// The holder of the leaked passphrase, who can write to the storage,
    /// rewrites B's certificate with a key of their own, signed by the
    /// authority they opened: the change seals the new key to no key but the
    /// one A first read for B, and says B's key changed.
    func testACertificateRewrittenWithTheLeakedAuthorityGetsNoKey() async throws {
        // A has read B's certificate once: that is the key it seals to from now on.
        try succeed(a, ["sync", "now"], environment: environment)
        let (_, leaked) = try await leakedAuthority()
        let remote = try FolderRemote(path: remoteFolder.path)
        let keys = try await KeyRotation(remote: remote, vaultID: vaultID, device: "", clock: SystemClock())
            .certifiedKeys(authority: leaked.authority.publicKey)
        let aID = try ownID(a)
        let bID = try XCTUnwrap(keys.keys.first { $0 != aID })
        let thiefKeys = try DeviceKeys.generate()
        let forged = try DeviceCertificate.issue(
            vault: vaultID, device: bID, boxPublicKey: thiefKeys.boxKeyPair.publicKey, by: leaked.authority, at: Date())
        try await remote.put(EpochLayout.deviceKey(vaultID, device: bID), data: try forged.encoded())

        let changed = try run(
            a, ["sync", "passphrase", "change", "--keep-joined", "--json"],
            environment: environment.merging(["AUTHCAT_NEW_SYNC_PASSPHRASE_FILE": newPassphraseFile.path]) { $1 })
        XCTAssertEqual(changed.termination, .exited(0), changed.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(changed.stdout.utf8)) as? [String: Any]
        let rotation = try XCTUnwrap(json?["rotation"] as? [String: Any], changed.stdout)
        XCTAssertEqual(rotation["key_changed"] as? [String], [bID], changed.stdout)
        let listed = try await remote.list(prefix: EpochLayout.rotationPrefix(vaultID))
        let name = try XCTUnwrap(listed.first?.name)
        let stored = try await remote.get(name)
        let record = try RotationRecord.decode(try XCTUnwrap(stored), name: name, vault: vaultID)
        XCTAssertTrue(record.keys.contains { $0.device == aID })
        XCTAssertFalse(record.keys.contains { $0.boxPublicKey == thiefKeys.boxKeyPair.publicKey })
        for sealed in record.keys {
            XCTAssertNil(try? PublicKeyCrypto.openSealed(sealed.sealedKey, keyPair: thiefKeys.boxKeyPair))
        }
    }

    /// The holder of the leaked passphrase rewrites the manifest in place
    /// (same epoch, signed by the authority they opened) to seal the manifest
    /// key to a recovery key of their own: no device takes it, and a change
    /// refuses to build on it.
    func testAManifestRewrittenInPlaceWithTheLeakedAuthorityIsNeitherTakenNorBuiltOn() async throws {
        let (manifest, leaked) = try await leakedAuthority()
        let theirs = try RecoveryKey.generate()
        let wraps = try ManifestKeyWraps.make(
            leaked.manifestKey, passphrase: SecretBytes(utf8: Self.passphrase), kdf: manifest.kdf,
            recovery: .key(theirs, anchoredAt: manifest.position), vaultID: vaultID)
        let rewritten = try KeyManifest.make(
            vaultID: vaultID, epoch: manifest.epoch, rotation: manifest.rotation, manifestKey: leaked.manifestKey,
            keys: leaked.keys, authority: leaked.authority, wraps: wraps, createdAt: Date())
        try rewritten.encoded().write(to: manifestFile)
        let before = try FileManager.default.contentsOfDirectory(atPath: vaultFolder.path).sorted()

        _ = try run(b, ["sync", "now"], environment: environment)
        let (status, json) = try statusJSON(b)
        XCTAssertEqual(status, 4, "\(json)")
        let refused = try run(
            a, ["sync", "passphrase", "change", "--keep-joined"],
            environment: environment.merging(["AUTHCAT_NEW_SYNC_PASSPHRASE_FILE": newPassphraseFile.path]) { $1 })
        XCTAssertEqual(refused.termination, .exited(1), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("not the one this device accepted"), refused.stderr)
        XCTAssertFalse(
            try FileManager.default.contentsOfDirectory(atPath: vaultFolder.path).contains {
                $0.hasPrefix("rotation-")
            },
            "no rotation was written: \(before)")
    }

    private func ownID(_ home: URL) throws -> String {
        let listed = try run(home, ["sync", "devices", "--json"], environment: environment)
        let devices = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        return try XCTUnwrap(devices.first { $0["this_device"] as? Bool == true }?["id"] as? String)
    }
}
