import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import XCTest

@testable import AuthCatSync

final class KeyManifestTests: XCTestCase {
    func testACommittedWrapOpensOnlyUnderItsKeyAndAssociatedData() throws {
        let key = try SecretBytes.random(count: 32)
        let secret = try SecretBytes.random(count: 32)
        var wrapped = try CommittedWrap.wrap(secret, key: key, associatedData: Data("a".utf8))
        XCTAssertEqual(try CommittedWrap.unwrap(wrapped, key: key, associatedData: Data("a".utf8)), secret)
        XCTAssertThrowsError(try CommittedWrap.unwrap(wrapped, key: key, associatedData: Data("b".utf8)))
        XCTAssertThrowsError(
            try CommittedWrap.unwrap(wrapped, key: try SecretBytes.random(count: 32), associatedData: Data("a".utf8)))
        XCTAssertThrowsError(try CommittedWrap.unwrap(wrapped.prefix(32), key: key, associatedData: Data("a".utf8)))
        wrapped[0] ^= 1
        XCTAssertThrowsError(try CommittedWrap.unwrap(wrapped, key: key, associatedData: Data("a".utf8))) {
            XCTAssertEqual($0 as? CryptoError, .authenticationFailed)
        }
    }

    /// The commitment is checked before the box: a box that some other key
    /// also opens (the partitioning attack) is refused on the commitment alone.
    func testACommittedWrapRefusesABoxBehindAnotherKeysCommitment() throws {
        let key = try SecretBytes.random(count: 32)
        let attackerKey = try SecretBytes.random(count: 32)
        let secret = try SecretBytes.random(count: 32)
        let honest = try CommittedWrap.wrap(secret, key: key, associatedData: Data())
        let attacker = try CommittedWrap.wrap(secret, key: attackerKey, associatedData: Data())
        let spliced = attacker.prefix(CommittedWrap.commitmentSize) + honest.dropFirst(CommittedWrap.commitmentSize)
        XCTAssertThrowsError(try CommittedWrap.unwrap(Data(spliced), key: key, associatedData: Data()))
    }

    func testTheManifestOpensWithThePassphraseOrTheRecoveryKeyToTheSameKeysAndAuthority() async throws {
        let fixture = try await KeyedRemoteFixture()
        let manifest = try await fixture.manifest()
        let byPassphrase = try manifest.unlock(with: fixture.passphrase)
        let byRecovery = try manifest.unlock(with: .recoveryKey(SecretBytes(utf8: fixture.recoveryKey.formatted)))
        XCTAssertEqual(byPassphrase.keys.masterKey, fixture.keys.masterKey)
        XCTAssertEqual(byRecovery.keys.masterKey, fixture.keys.masterKey)
        XCTAssertEqual(byRecovery.authority.publicKey, fixture.authority.publicKey)
        XCTAssertEqual(manifest.position, fixture.origin)
        XCTAssertThrowsError(try manifest.unlock(with: .passphrase(SecretBytes(utf8: "wrong passphrase")))) {
            XCTAssertEqual($0 as? SyncError, .wrongPassphrase)
        }
    }

    /// An older authcat reads every member it knows and then refuses the version.
    func testAVersion1ReaderSaysTheManifestIsFromANewerAuthcat() async throws {
        let fixture = try await KeyedRemoteFixture()
        let data = try XCTUnwrap(fixture.remote.storedObjects[RemoteLayout.manifest(fixture.vaultID)])
        XCTAssertThrowsError(try Manifest.decode(data, expectedVaultID: fixture.vaultID)) {
            XCTAssertTrue(($0 as? SyncError)?.message.contains("newer authcat") == true, "\($0)")
        }
    }

    /// The remote changes the manifest (its key parameters, or the whole of it
    /// re-signed by a key of its own): a pinned device does not take it, and
    /// a joining device refuses it even with the right passphrase.
    func testAManifestChangedByTheRemoteIsNeitherAcceptedNorOpened() async throws {
        let fixture = try await KeyedRemoteFixture()
        var changed = try await fixture.manifest()
        changed.kdf = try KDFParameters.minimumForTesting()
        // A device at epoch 0 that accepted generation 0 (a version 2 manifest), so that only the checks differ.
        XCTAssertFalse(try changed.isAcceptable(at: fixture.origin, vaultID: fixture.vaultID, afterGeneration: 0))
        let forger = try AuthorityKey.generate()
        var resigned = try await fixture.manifest()
        resigned.authorityPublicKey = forger.publicKey
        resigned = try forger.sign(resigned)
        XCTAssertFalse(try resigned.isAcceptable(at: fixture.origin, vaultID: fixture.vaultID, afterGeneration: 0))
        XCTAssertThrowsError(try resigned.unlock(with: fixture.passphrase)) {
            XCTAssertEqual(($0 as? SyncError)?.category, .integrity)
        }
        let honest = try await fixture.manifest()
        XCTAssertTrue(try honest.isAcceptable(at: fixture.origin, vaultID: fixture.vaultID, afterGeneration: 0))
        // Not again (its generation is the one accepted), not at another position, not for another vault.
        XCTAssertFalse(
            try honest.isAcceptable(
                at: fixture.origin, vaultID: fixture.vaultID, afterGeneration: honest.generationNumber))
        var elsewhere = fixture.origin
        elsewhere.recordHash = String(repeating: "0", count: 64)
        XCTAssertFalse(try honest.isAcceptable(at: elsewhere, vaultID: fixture.vaultID, afterGeneration: 0))
        XCTAssertFalse(try honest.isAcceptable(at: fixture.origin, vaultID: "0000000000000000", afterGeneration: 0))
    }

    func testADeviceCertificateCountsOnlyWhenTheAuthoritySignedItForThatDevice() async throws {
        let fixture = try await KeyedRemoteFixture()
        let name = EpochLayout.deviceKey(fixture.vaultID, device: "bbbbbbbbbbbbbbbb")
        let data = try XCTUnwrap(fixture.remote.storedObjects[name])
        let certificate = try DeviceCertificate.open(
            data, name: name, vault: fixture.vaultID, authority: fixture.authority.publicKey)
        XCTAssertEqual(certificate.boxPublicKey, fixture.devices["bbbbbbbbbbbbbbbb"]?.boxKeyPair.publicKey)
        // Moved to another device's name.
        XCTAssertThrowsError(
            try DeviceCertificate.open(
                data, name: EpochLayout.deviceKey(fixture.vaultID, device: "cccccccccccccccc"), vault: fixture.vaultID,
                authority: fixture.authority.publicKey))
        // The remote swaps in its own public key.
        var swapped = certificate
        swapped.boxPublicKey = try PublicKeyCrypto.boxKeyPair().publicKey
        XCTAssertThrowsError(
            try DeviceCertificate.open(
                try swapped.encoded(), name: name, vault: fixture.vaultID, authority: fixture.authority.publicKey)
        ) { XCTAssertEqual($0 as? SyncObjectError, .notAuthentic) }
        // Signed by a device's own key (a thief's) instead of the authority.
        let thief = try AuthorityKey.generate()
        XCTAssertThrowsError(
            try DeviceCertificate.open(
                try thief.sign(swapped).encoded(), name: name, vault: fixture.vaultID,
                authority: fixture.authority.publicKey))
    }

    func testTheDeviceKeySealedLocallyOpensOnlyForItsVaultAndDevice() throws {
        let keys = try DeviceKeys.generate()
        let sealingKey = try SecretBytes.random(count: 32)
        let sealed = try keys.sealedLocally(sealingKey: sealingKey, remoteVaultID: "v", deviceID: "d")
        let opened = try DeviceKeys.unsealLocally(sealed, sealingKey: sealingKey, remoteVaultID: "v", deviceID: "d")
        XCTAssertEqual(opened.boxKeyPair.publicKey, keys.boxKeyPair.publicKey)
        XCTAssertThrowsError(
            try DeviceKeys.unsealLocally(sealed, sealingKey: sealingKey, remoteVaultID: "v", deviceID: "e"))
    }
}
