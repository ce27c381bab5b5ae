import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import XCTest

@testable import AuthCatSync

final class PassphraseChangeTests: XCTestCase {
    func testTheNewPassphraseOpensTheSameKeyTheOldOneNoLongerDoesAndTheRecoveryKeyStillDoes() async throws {
        let fixture = try await KeyedRemoteFixture()
        let change = PassphraseChange(remote: fixture.remote, vaultID: fixture.vaultID, clock: fixture.clock)
        let prepared = try await change.prepare(
            current: fixture.passphrase, newPassphrase: SecretBytes(utf8: "a new passphrase"), newRecoveryKey: false,
            kdf: fixture.kdf)
        XCTAssertNil(prepared.recoveryKey)
        try await change.commit(prepared)
        let manifest = try await fixture.manifest()
        XCTAssertEqual(
            try manifest.unlock(with: .passphrase(SecretBytes(utf8: "a new passphrase"))).keys.masterKey,
            fixture.keys.masterKey)
        XCTAssertThrowsError(try manifest.unlock(with: fixture.passphrase)) {
            XCTAssertEqual($0 as? SyncError, .wrongPassphrase)
        }
        XCTAssertEqual(
            try manifest.unlock(with: .recoveryKey(SecretBytes(utf8: fixture.recoveryKey.formatted))).keys.masterKey,
            fixture.keys.masterKey)
        // Pinned devices take it without a question: the authority they pinned signed it.
        XCTAssertTrue(
            try manifest.isAcceptable(
                pinnedAuthority: fixture.authority.publicKey, vaultID: fixture.vaultID, atLeastEpoch: 0))
    }

    func testANewRecoveryKeyReplacesTheOldOneAndAnOldManifestCopyOpensNothingNewer() async throws {
        let fixture = try await KeyedRemoteFixture()
        let oldManifest = try await fixture.manifest()
        let change = PassphraseChange(remote: fixture.remote, vaultID: fixture.vaultID, clock: fixture.clock)
        let prepared = try await change.prepare(
            current: .recoveryKey(SecretBytes(utf8: fixture.recoveryKey.formatted)),
            newPassphrase: SecretBytes(utf8: "a new passphrase"), newRecoveryKey: true, kdf: fixture.kdf)
        let fresh = try XCTUnwrap(prepared.recoveryKey)
        try await change.commit(prepared)
        let manifest = try await fixture.manifest()
        XCTAssertEqual(
            try manifest.unlock(with: .recoveryKey(SecretBytes(utf8: fresh.formatted))).keys.masterKey,
            fixture.keys.masterKey)
        XCTAssertThrowsError(try manifest.unlock(with: .recoveryKey(SecretBytes(utf8: fixture.recoveryKey.formatted))))
        // The old manifest key, which an old copy and the old passphrase give, opens nothing in the new manifest.
        let oldManifestKey = try oldManifest.unlock(with: fixture.passphrase).manifestKey
        XCTAssertThrowsError(try manifest.unlock(manifestKey: oldManifestKey))
    }

    func testAWrongCurrentPassphraseChangesNothing() async throws {
        let fixture = try await KeyedRemoteFixture()
        let before = fixture.remote.storedObjects
        let change = PassphraseChange(remote: fixture.remote, vaultID: fixture.vaultID, clock: fixture.clock)
        do {
            _ = try await change.prepare(
                current: .passphrase(SecretBytes(utf8: "not it at all")), newPassphrase: SecretBytes(utf8: "x"),
                newRecoveryKey: true, kdf: fixture.kdf)
            XCTFail("a wrong passphrase must not change anything")
        } catch {
            XCTAssertEqual(error as? SyncError, .wrongPassphrase)
        }
        XCTAssertEqual(fixture.remote.storedObjects, before)
    }

    /// A version 1 manifest is upgraded by the change; with only the passphrase
    /// it needs a new recovery key, since the old recovery wrap cannot be rewritten.
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
        let change = PassphraseChange(remote: remote, vaultID: vaultID, clock: clock)
        do {
            _ = try await change.prepare(
                current: .passphrase(old), newPassphrase: SecretBytes(utf8: "new"), newRecoveryKey: false,
                kdf: try KDFParameters.minimumForTesting())
            XCTFail("upgrading with the passphrase alone needs a new recovery key")
        } catch {
            XCTAssertTrue("\(error)".contains("--new-recovery-key"), "\(error)")
        }
        let prepared = try await change.prepare(
            current: .recoveryKey(SecretBytes(utf8: recoveryKey.formatted)), newPassphrase: SecretBytes(utf8: "new"),
            newRecoveryKey: false, kdf: try KDFParameters.minimumForTesting())
        try await change.commit(prepared)
        guard case .version2(let upgraded) = try await StoredManifest.read(from: remote, vaultID: vaultID).0 else {
            return XCTFail("the manifest should be version 2 now")
        }
        XCTAssertEqual(try upgraded.unlock(with: .passphrase(SecretBytes(utf8: "new"))).keys.masterKey, keys.masterKey)
        XCTAssertEqual(
            try upgraded.unlock(with: .recoveryKey(SecretBytes(utf8: recoveryKey.formatted))).keys.masterKey,
            keys.masterKey)
    }
}
