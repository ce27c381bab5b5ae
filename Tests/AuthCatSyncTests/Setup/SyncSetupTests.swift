import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

final class SyncSetupTests: XCTestCase {
    var folder: URL!
    var remote: MemoryRemote!

    override func setUpWithError() throws {
        folder = try makeTemporaryFolder().url
        remote = MemoryRemote()
    }

    func device(_ name: String) throws -> SyncTestDevice {
        try SyncTestDevice(name, in: folder, remote: remote)
    }

    func testPlanIsCreateThenJoinThenResume() async throws {
        let a = try device("a")
        let b = try device("b")
        var plan = try await SyncSetup.plan(vault: a.vault, remote: remote)
        XCTAssertEqual(plan, .create)
        try await a.enable()
        plan = try await SyncSetup.plan(vault: b.vault, remote: remote)
        XCTAssertEqual(plan, .join)
        plan = try await SyncSetup.plan(vault: a.vault, remote: remote)
        XCTAssertEqual(plan, .resume)
    }

    /// With no limits chosen, as in every program outside the tests' own build, a
    /// new sync passphrase gets libsodium's moderate limits (256 MiB).
    func testCreateWithoutChosenLimitsStoresModerateOnes() async throws {
        let a = try device("a")
        let result = try await SyncSetup.enable(
            vault: a.vault, remote: remote, remoteURL: remote.displayLocation,
            secret: .passphrase(SecretBytes(utf8: SyncTestDevice.passphrase)), recorder: a.events, clock: a.clock)
        let manifestData = try XCTUnwrap(remote.storedObjects[RemoteLayout.manifest(result.remoteVaultID)])
        let manifest = try KeyManifest.decode(manifestData, expectedVaultID: result.remoteVaultID)
        let moderate = try KDFParameters.moderate()
        XCTAssertEqual(manifest.kdf.opsLimit, moderate.opsLimit)
        XCTAssertEqual(manifest.kdf.memLimit, moderate.memLimit)
    }

    func testCreateMakesManifestWithStoredKDFParametersAndARecoveryKey() async throws {
        let a = try device("a")
        let result = try await a.enable()
        XCTAssertEqual(result.outcome, .created)
        let recoveryKey = try XCTUnwrap(result.recoveryKey)
        XCTAssertEqual(recoveryKey.count, 52 + 12, "13 groups of 4 with dashes")
        let manifestData = try XCTUnwrap(remote.storedObjects[RemoteLayout.manifest(result.remoteVaultID)])
        let manifest = try KeyManifest.decode(manifestData, expectedVaultID: result.remoteVaultID)
        let expected = try KDFParameters.minimumForTesting()
        XCTAssertEqual(manifest.kdf.opsLimit, expected.opsLimit)
        XCTAssertEqual(manifest.kdf.memLimit, expected.memLimit)
        XCTAssertFalse(String(decoding: manifestData, as: UTF8.self).contains(SyncTestDevice.passphrase))
        XCTAssertTrue(SyncState.isEnabled(in: a.vault.location))
        XCTAssertEqual(a.events.events.map(\.kind), [.started, .succeeded])
    }

    func testAChosenDeviceIdIsTakenAndAMalformedOneRefused() async throws {
        let a = try device("a")
        a.syncDeviceID = "00112233445566ff"
        let result = try await a.enable()
        XCTAssertEqual(result.deviceID, "00112233445566ff")
        let b = try device("b")
        b.syncDeviceID = "not-a-device-id"
        let error = await syncError { try await b.enable() }
        XCTAssertEqual(error?.description, "a device id is 16 lowercase hex digits")
        XCTAssertFalse(SyncState.isEnabled(in: b.vault.location))
    }

    func testWrongPassphraseIsRefusedAndNothingIsWritten() async throws {
        let a = try device("a")
        try a.add("GitHub", "alice")
        try await a.enable()
        try await a.sync()
        let before = remote.storedObjects
        let b = try device("b")
        let error = await syncError { try await b.enable(passphrase: "wrong") }
        XCTAssertEqual(error?.category, .wrongPassphrase)
        XCTAssertEqual(remote.storedObjects, before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: SyncStore.url(in: b.vault.location).path))
        XCTAssertFalse(SyncState.isEnabled(in: b.vault.location))
        XCTAssertEqual(b.events.events.last?.failure?.category, .wrongPassphrase)
        XCTAssertNil(try b.engine())
    }

    /// The command line asks for the secret before it takes the run lock; a
    /// remote whose vault went away meanwhile must not get a new vault under
    /// a passphrase that was typed once, to join.
    func testARemoteThatChangedSinceThePlanSetsNothingUp() async throws {
        let b = try device("b")
        let passphrase = SyncSecret.passphrase(SecretBytes(utf8: SyncTestDevice.passphrase))
        let error = await syncError {
            _ = try await SyncSetup.enable(
                vault: b.vault, remote: remote, remoteURL: remote.displayLocation, secret: passphrase,
                kdf: KDFParameters.minimumForTesting(), recorder: b.events, clock: b.clock,
                expecting: .join)
        }
        XCTAssertEqual(
            error?.description, "the remote changed while authcat asked for the secret; nothing was set up, try again")
        XCTAssertEqual(remote.storedObjects, [:], "no vault was created")
        XCTAssertFalse(SyncState.isEnabled(in: b.vault.location))
        XCTAssertEqual(b.events.events.last?.kind, .failed)

        let created = try await SyncSetup.enable(
            vault: b.vault, remote: remote, remoteURL: remote.displayLocation,
            secret: passphrase, kdf: KDFParameters.minimumForTesting(),
            recorder: b.events, clock: b.clock, expecting: .create)
        XCTAssertEqual(created.outcome, .created, "the plan it was asked for goes ahead")
    }

    func testRecoveryKeyJoinsWhateverItsSpacingAndCase() async throws {
        let a = try device("a")
        try a.add("GitHub", "alice")
        let created = try await a.enable()
        try await a.sync()
        let typed = try XCTUnwrap(created.recoveryKey).lowercased().replacingOccurrences(of: "-", with: " ")
        let b = try device("b")
        let joined = try await b.enable(secret: .recoveryKey(SecretBytes(utf8: typed)))
        XCTAssertEqual(joined.outcome, .joined)
        try await b.sync()
        XCTAssertEqual(try b.labels, ["GitHub:alice"])
    }

    func testWrongOrMalformedRecoveryKeyIsRefused() async throws {
        let a = try device("a")
        try await a.enable()
        let b = try device("b")
        let other = try RecoveryKey.generate().formatted
        var error = await syncError { try await b.enable(secret: .recoveryKey(SecretBytes(utf8: other))) }
        XCTAssertEqual(error?.category, .wrongPassphrase)
        error = await syncError { try await b.enable(secret: .recoveryKey(SecretBytes(utf8: "ABCD-EFGH"))) }
        XCTAssertEqual(error?.category, .wrongPassphrase)
        XCTAssertNil(try SyncStore.openIfPresent(in: b.vault.location))
    }

    func testJoiningNeedsASecretAndCreatingNeedsAPassphrase() async throws {
        let a = try device("a")
        var error = await syncError {
            try await a.enable(secret: .recoveryKey(SecretBytes(utf8: try RecoveryKey.generate().formatted)))
        }
        XCTAssertTrue(error?.message.contains("new sync passphrase") ?? false)
        try await a.enable()
        let b = try device("b")
        error = await syncError { try await b.enable(secret: nil) }
        XCTAssertTrue(error?.message.contains("passphrase or recovery key") ?? false)
    }

    func testResumeNeedsNoSecretAndKeepsTheDevice() async throws {
        let a = try device("a")
        let created = try await a.enable()
        try await a.disable()
        XCTAssertFalse(SyncState.isEnabled(in: a.vault.location))
        let resumed = try await a.enable(secret: nil)
        XCTAssertEqual(resumed.outcome, .resumed)
        XCTAssertEqual(resumed.deviceID, created.deviceID)
        XCTAssertTrue(SyncState.isEnabled(in: a.vault.location))
    }

    func testUnreachableRemoteFailsSetupWithItsCategory() async throws {
        let a = try device("a")
        remote.failNext(1)
        let error = await syncError { try await a.enable() }
        XCTAssertEqual(error?.category, .unreachable)
        XCTAssertEqual(a.events.events.last?.failure?.category, .unreachable)
        XCTAssertTrue(remote.storedObjects.isEmpty)
    }
}
