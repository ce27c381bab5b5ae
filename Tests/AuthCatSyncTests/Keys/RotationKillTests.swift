import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import Synchronization
import XCTest

@testable import AuthCatSync

/// Rotations and passphrase changes cut off after any number of writes, as a
/// kill would cut them: the remote stays readable by the devices that remain
/// and opens with the passphrase, and running the job again finishes it.
final class RotationKillTests: XCTestCase {
    let a = "aaaaaaaaaaaaaaaa"
    let b = "bbbbbbbbbbbbbbbb"
    let c = "cccccccccccccccc"

    func testARotationCutOffAfterAnyWriteLeavesAReadableRemoteAndIsFinishedByRunningItAgain() async throws {
        for writes in 0...6 {
            let fixture = try await KeyedRemoteFixture()
            let cutting = WriteLimitedRemote(fixture.remote, writes: writes)
            let rotation = try fixture.rotation(by: a, on: cutting)
            let prepared = try await rotation.prepare(
                secret: fixture.passphrase, position: fixture.origin, devices: [a, b, c],
                boxKeys: try await fixture.boxKeys(), revoking: [c], cuts: [])
            let completed: Bool
            do {
                try await rotation.publish(prepared)
                completed = true
            } catch is WriteLimitedRemote.Killed {
                completed = false
            }
            // Whatever was written, B reads either the old epoch (nothing to adopt) or the new one.
            let forB = try await fixture.follow(b)
            let manifest = try await fixture.manifest()
            let opened = try manifest.unlock(with: fixture.passphrase)
            if writes == 0 {
                XCTAssertTrue(forB.outcome.isCurrent, "killed before the record: nothing changed")
                XCTAssertEqual(opened.keys.masterKey, fixture.keys.masterKey)
                continue
            }
            XCTAssertEqual(forB.outcome.adoptedKeys?.masterKey, prepared.keys.masterKey, "after \(writes) writes")
            let awaited1 = try await fixture.follow(c)
            XCTAssertEqual(awaited1.outcome.revokedEpoch, 1)
            let keyBefore = opened.keys.masterKey
            XCTAssertTrue(
                keyBefore == fixture.keys.masterKey || keyBefore == prepared.keys.masterKey,
                "the passphrase opens the old or the new key after \(writes) writes")
            // Running it again (with the passphrase) finishes it.
            let epoch = try await fixture.rotation(by: a).resume(secret: fixture.passphrase)
            XCTAssertEqual(epoch, 1)
            let finished = try await fixture.manifest()
            XCTAssertEqual(finished.epoch, 1)
            XCTAssertEqual(try finished.unlock(with: fixture.passphrase).keys.masterKey, prepared.keys.masterKey)
            let authority = prepared.record.authorityPublicKey
            let certified = try await fixture.rotation(by: a).certifiedKeys(authority: authority)
            XCTAssertEqual(
                Set(certified.keys), [a, b],
                "after \(writes) writes (completed: \(completed))")
        }
    }

    /// A seeded run of passphrase changes (rotations to new secrets) cut off
    /// at random points: afterwards the old or the new passphrase is in force,
    /// the new one finishes a change whose record was written, the old one
    /// then opens nothing, and the recovery key opens the newest keys throughout.
    func testAPassphraseChangeCutOffAtRandomLeavesTheOldOrTheNewPassphraseWorking() async throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["AUTHCAT_TEST_SEED"] ?? "") ?? 20_261_125
        print("passphrase change kill seed: \(seed) (AUTHCAT_TEST_SEED replays it)")
        var generator = SeededRandom(seed: seed)
        let fixture = try await KeyedRemoteFixture()
        let recovery = SyncSecret.recoveryKey(SecretBytes(utf8: fixture.recoveryKey.formatted))
        var current = KeyedRemoteFixture.passphrase
        for round in 0..<6 {
            let next = "new passphrase \(round)"
            let cutting = WriteLimitedRemote(fixture.remote, writes: Int.random(in: 0...5, using: &generator))
            let rotation = KeyRotation(
                remote: cutting, vaultID: fixture.vaultID, device: "aaaaaaaaaaaaaaaa", clock: fixture.clock)
            let prepared = try await rotation.prepare(
                secret: .passphrase(SecretBytes(utf8: current)), position: try await fixture.manifest().position,
                devices: Set(fixture.devices.keys),
                boxKeys: try await fixture.boxKeys(at: try await fixture.manifest().position), revoking: [], cuts: [],
                newSecrets: KeyRotation.NewSecrets(
                    passphrase: SecretBytes(utf8: next), kdf: fixture.kdf, recoveryKey: nil))
            do {
                try await rotation.publish(prepared)
            } catch is WriteLimitedRemote.Killed {}
            let finishing = KeyRotation(
                remote: fixture.remote, vaultID: fixture.vaultID, device: "bbbbbbbbbbbbbbbb", clock: fixture.clock)
            let recordWritten = fixture.remote.storedObjects[prepared.recordName] != nil
            if recordWritten {
                _ = try await finishing.resume(secret: .passphrase(SecretBytes(utf8: next)))
                do {
                    _ = try await finishing.resume(secret: .passphrase(SecretBytes(utf8: current)))
                    XCTFail("round \(round): the replaced passphrase must open nothing")
                } catch let error as SyncError {
                    XCTAssertEqual(error.category, .wrongPassphrase, "round \(round): \(error)")
                }
                current = next
            }
            let manifest = try await fixture.manifest()
            XCTAssertEqual(
                manifest.epoch,
                EpochLayout.newestListedEpoch(fixture.remote.storedObjects.keys.sorted(), vault: fixture.vaultID),
                "round \(round)")
            let byPassphrase = try manifest.unlock(with: .passphrase(SecretBytes(utf8: current)))
            let byRecovery = try await StoredManifest.version2(manifest).unlock(with: recovery, on: fixture.remote)
            XCTAssertEqual(byRecovery.keys.masterKey, byPassphrase.keys.masterKey, "round \(round)")
        }
    }
}

/// A remote that passes reads through and is "killed" after a given number
/// of writes (put, create, delete): later writes throw `Killed` and change nothing.
final class WriteLimitedRemote: RemoteWrapper, Sendable {
    struct Killed: Error {}

    let base: any Remote
    private let remaining: Mutex<Int>

    init(_ base: MemoryRemote, writes: Int) {
        self.base = base
        remaining = Mutex(writes)
    }

    func put(_ name: String, data: Data) async throws {
        try spendWrite()
        try await base.put(name, data: data)
    }

    func create(_ name: String, data: Data) async throws -> Bool {
        try spendWrite()
        return try await base.create(name, data: data)
    }

    func delete(_ name: String) async throws {
        try spendWrite()
        try await base.delete(name)
    }

    private func spendWrite() throws {
        try remaining.withLock { left in
            guard left > 0 else { throw Killed() }
            left -= 1
        }
    }
}
