import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import XCTest

@testable import AuthCatSync

/// A passphrase change is a rotation to new secrets (`KeyRotation.NewSecrets`):
/// what the old passphrase, with any old copy of the remote, can still open.
final class PassphraseChangeTests: XCTestCase {
    private let newPassphrase = "a new passphrase"
    private var newSecret: SyncSecret { .passphrase(SecretBytes(utf8: newPassphrase)) }

    private func change(
        _ fixture: KeyedRemoteFixture, from secret: SyncSecret? = nil, newRecoveryKey: RecoveryKey? = nil,
        revoking: Set<String> = []
    ) async throws -> KeyRotation.Prepared {
        try await fixture.rotate(
            revoking: revoking, secret: secret,
            newSecrets: KeyRotation.NewSecrets(
                passphrase: SecretBytes(utf8: newPassphrase), kdf: fixture.kdf, recoveryKey: newRecoveryKey))
    }

    func testTheNewPassphraseOpensNewKeysTheOldOneNothingAndTheRecoveryKeyStillWorks() async throws {
        let fixture = try await KeyedRemoteFixture()
        let prepared = try await change(fixture)
        let manifest = try await fixture.manifest()
        XCTAssertEqual(manifest.epoch, 1)
        XCTAssertEqual(manifest.generation, 2)
        XCTAssertNotEqual(prepared.keys.masterKey, fixture.keys.masterKey)
        XCTAssertEqual(try manifest.unlock(with: newSecret).keys.masterKey, prepared.keys.masterKey)
        XCTAssertThrowsError(try manifest.unlock(with: fixture.passphrase)) {
            XCTAssertEqual($0 as? SyncError, .wrongPassphrase)
        }
        let recovery = SyncSecret.recoveryKey(SecretBytes(utf8: fixture.recoveryKey.formatted))
        let byRecovery = try await StoredManifest.version2(manifest).unlock(with: recovery, on: fixture.remote)
        XCTAssertEqual(byRecovery.keys.masterKey, prepared.keys.masterKey)
        // Every remaining device takes the new key from the record, without a secret.
        for device in ["bbbbbbbbbbbbbbbb", "cccccccccccccccc"] {
            let followed = try await fixture.follow(device)
            XCTAssertEqual(followed.outcome.adoptedKeys?.masterKey, prepared.keys.masterKey, device)
        }
    }

    /// An offline reader holding the old passphrase and a copy of everything
    /// the remote held before the change tries every wrapped key written afterwards.
    func testTheOldPassphraseWithAnOldManifestCopyOpensNoKeyWrittenAfterwards() async throws {
        for newRecoveryKey in [nil, try RecoveryKey.generate()] {
            let fixture = try await KeyedRemoteFixture()
            let oldManifest = try await fixture.manifest()
            let oldManifestKey = try oldManifest.unlock(with: fixture.passphrase).manifestKey
            let prepared = try await change(fixture, newRecoveryKey: newRecoveryKey)
            let manifest = try await fixture.manifest()
            XCTAssertThrowsError(try manifest.unlock(manifestKey: oldManifestKey))
            XCTAssertThrowsError(try prepared.record.unwrap(manifestKey: oldManifestKey))
            XCTAssertThrowsError(
                try prepared.record.manifestKey?.openManifestKey(with: fixture.passphrase, vaultID: fixture.vaultID))
            // Nor do the keys the old manifest opened: the master key and authority are new.
            let old = try oldManifest.unlock(with: fixture.passphrase)
            XCTAssertNotEqual(old.keys.masterKey, prepared.keys.masterKey)
            XCTAssertNotEqual(old.authority.publicKey, manifest.authorityPublicKey)
        }
    }

    /// The old manifest copied back: no pinned device takes it, and a device
    /// joining with the old passphrase finds it opens only what was replaced.
    func testAnOldManifestPutBackIsNeitherAcceptedNorJoinedWithTheOldPassphrase() async throws {
        let fixture = try await KeyedRemoteFixture()
        let oldBytes = try XCTUnwrap(fixture.remote.storedObjects[RemoteLayout.manifest(fixture.vaultID)])
        let oldManifest = try await fixture.manifest()
        _ = try await change(fixture)
        let newManifest = try await fixture.manifest()
        try await fixture.remote.put(RemoteLayout.manifest(fixture.vaultID), data: oldBytes)
        XCTAssertFalse(
            try oldManifest.isAcceptable(
                at: newManifest.position, vaultID: fixture.vaultID, afterGeneration: newManifest.generationNumber))
        // Even at the position it names, a device never goes back a generation.
        XCTAssertFalse(
            try oldManifest.isAcceptable(
                at: oldManifest.position, vaultID: fixture.vaultID, afterGeneration: newManifest.generationNumber))
        let joining = KeyRotation(
            remote: fixture.remote, vaultID: fixture.vaultID, device: "dddddddddddddddd", clock: fixture.clock)
        do {
            _ = try await joining.resume(secret: fixture.passphrase)
            XCTFail("the old passphrase must not get past the change")
        } catch let error as SyncError {
            XCTAssertEqual(error.category, .wrongPassphrase)
            XCTAssertTrue(error.message.contains("replaced by a newer one"), error.message)
        }
        XCTAssertEqual(fixture.remote.storedObjects[RemoteLayout.manifest(fixture.vaultID)], oldBytes)
    }

    /// Anyone can seal a manifest key of their own to the recovery key's
    /// public half and copy the anchor: the recovery key refuses what no chain
    /// of signed records leads to from its anchor.
    func testAManifestSealedToTheRecoveryKeyByTheRemoteIsRefused() async throws {
        let fixture = try await KeyedRemoteFixture()
        let honest = try await fixture.manifest()
        let forger = try AuthorityKey.generate()
        let forgedKey = try KeyManifest.newManifestKey()
        let wraps = try ManifestKeyWraps.make(
            forgedKey, passphrase: SecretBytes(utf8: "the forger's own"), kdf: fixture.kdf,
            recovery: try XCTUnwrap(honest.wraps.keptRecoverySide), vaultID: fixture.vaultID)
        let forged = try KeyManifest.make(
            vaultID: fixture.vaultID, epoch: 0, rotation: "", manifestKey: forgedKey,
            keys: try SyncKeys.generate(), authority: forger, wraps: wraps, createdAt: fixture.clock.now())
        let recovery = SyncSecret.recoveryKey(SecretBytes(utf8: fixture.recoveryKey.formatted))
        // The sealed box opens: only the chain tells it from the real one.
        XCTAssertNoThrow(try forged.unlock(with: recovery))
        do {
            _ = try await StoredManifest.version2(forged).unlock(with: recovery, on: fixture.remote)
            XCTFail("a manifest the chain does not lead to must be refused")
        } catch let error as SyncError {
            XCTAssertEqual(error.category, .integrity)
        }
        let opened = try await StoredManifest.version2(honest).unlock(with: recovery, on: fixture.remote)
        XCTAssertEqual(opened.keys.masterKey, fixture.keys.masterKey)
    }

    /// A new recovery key is anchored at the new authority: whoever held the
    /// old passphrase (the old authority) and seals a manifest key of their own
    /// to the new recovery key, with its anchor copied, at the position the
    /// change started from, is refused.
    func testANewRecoveryKeyIsAnchoredWhereTheOldAuthorityCannotReach() async throws {
        let fixture = try await KeyedRemoteFixture()
        let old = try await fixture.manifest()
        let leaked = try old.unlock(with: fixture.passphrase)
        let fresh = try RecoveryKey.generate()
        _ = try await change(fixture, newRecoveryKey: fresh)
        let honest = try await fixture.manifest()
        let theirs = try KeyManifest.newManifestKey()
        let forged = try KeyManifest.make(
            vaultID: fixture.vaultID, epoch: old.epoch, rotation: old.rotation, manifestKey: theirs,
            keys: try SyncKeys.generate(), authority: leaked.authority,
            wraps: try ManifestKeyWraps.make(
                theirs, passphrase: SecretBytes(utf8: "theirs"), kdf: fixture.kdf,
                recovery: try XCTUnwrap(honest.wraps.keptRecoverySide), vaultID: fixture.vaultID),
            createdAt: fixture.clock.now())
        let recovery = SyncSecret.recoveryKey(SecretBytes(utf8: fresh.formatted))
        XCTAssertNoThrow(try forged.unlock(with: recovery), "the sealed box opens: only the anchor tells")
        do {
            _ = try await StoredManifest.version2(forged).unlock(with: recovery, on: fixture.remote)
            XCTFail("a manifest the old authority signed must not pass the new anchor")
        } catch let error as SyncError {
            XCTAssertEqual(error.category, .integrity)
        }
        let opened = try await StoredManifest.version2(honest).unlock(with: recovery, on: fixture.remote)
        XCTAssertEqual(opened.version2?.authority.publicKey, honest.authorityPublicKey)
    }

    func testANewRecoveryKeyReplacesTheOldOne() async throws {
        let fixture = try await KeyedRemoteFixture()
        let fresh = try RecoveryKey.generate()
        let prepared = try await change(fixture, newRecoveryKey: fresh)
        let stored = StoredManifest.version2(try await fixture.manifest())
        let opened = try await stored.unlock(
            with: .recoveryKey(SecretBytes(utf8: fresh.formatted)), on: fixture.remote)
        XCTAssertEqual(opened.keys.masterKey, prepared.keys.masterKey)
        do {
            _ = try await stored.unlock(
                with: .recoveryKey(SecretBytes(utf8: fixture.recoveryKey.formatted)), on: fixture.remote)
            XCTFail("the old recovery key must no longer open")
        } catch {
            XCTAssertEqual(error as? SyncError, .wrongPassphrase)
        }
    }

    func testAWrongCurrentPassphraseChangesNothing() async throws {
        let fixture = try await KeyedRemoteFixture()
        let before = fixture.remote.storedObjects
        do {
            _ = try await change(fixture, from: .passphrase(SecretBytes(utf8: "not it at all")))
            XCTFail("a wrong passphrase must not change anything")
        } catch {
            XCTAssertEqual(error as? SyncError, .wrongPassphrase)
        }
        XCTAssertEqual(fixture.remote.storedObjects, before)
    }

    /// A version 1 manifest is upgraded in place; with only the passphrase it
    /// needs a new recovery key, since the old recovery wrap cannot follow.
    func testAVersion1ManifestIsUpgradedWithANewRecoveryKeyOrTheOldOne() async throws {
        let remote = MemoryRemote()
        let clock = ManualClock()
        let vaultID = try RemoteLayout.newVaultID()
        let keys = try SyncKeys.generate()
        let recoveryKey = try RecoveryKey.generate()
        let old = SecretBytes(utf8: "an old passphrase")
        let manifest = try Manifest.make(
            vaultID: vaultID, keys: keys, passphrase: old, recoveryKey: recoveryKey,
            kdf: try KDFParameters.minimumForTesting(), createdAt: clock.now())
        try await remote.put(RemoteLayout.manifest(vaultID), data: try manifest.encoded())
        let upgrade = ManifestUpgrade(remote: remote, vaultID: vaultID, clock: clock)
        do {
            _ = try await upgrade.prepare(
                current: .passphrase(old), newPassphrase: SecretBytes(utf8: "new"), newRecoveryKey: nil,
                kdf: try KDFParameters.minimumForTesting())
            XCTFail("upgrading with the passphrase alone needs a new recovery key")
        } catch {
            XCTAssertTrue("\(error)".contains("--new-recovery-key"), "\(error)")
        }
        let prepared = try await upgrade.prepare(
            current: .recoveryKey(SecretBytes(utf8: recoveryKey.formatted)), newPassphrase: SecretBytes(utf8: "new"),
            newRecoveryKey: nil, kdf: try KDFParameters.minimumForTesting())
        try await upgrade.commit(prepared)
        let stored = try await StoredManifest.read(from: remote, vaultID: vaultID).0
        guard case .version2(let upgraded) = stored else { return XCTFail("the manifest should be version 3 now") }
        XCTAssertEqual(upgraded.version, 3)
        XCTAssertEqual(try upgraded.unlock(with: .passphrase(SecretBytes(utf8: "new"))).keys.masterKey, keys.masterKey)
        let byRecovery = try await stored.unlock(
            with: .recoveryKey(SecretBytes(utf8: recoveryKey.formatted)), on: remote)
        XCTAssertEqual(byRecovery.keys.masterKey, keys.masterKey)
    }
}
