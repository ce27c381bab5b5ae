import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// A passphrase change seen by the other devices: one that pinned the
/// authority takes its new key and manifest silently; one from before devices
/// had keys cannot open the key sealed for it and is told to join again.
final class SyncPassphraseAdoptionTests: XCTestCase {
    var folder: URL!
    var remote: MemoryRemote!

    override func setUpWithError() throws {
        folder = try makeTemporaryFolder().url
        remote = MemoryRemote()
    }

    func testAPinnedDeviceTakesTheChangeAndAKeylessOneIsToldToJoinAgain() async throws {
        let (a, b, c) = (
            try SyncTestDevice("a", in: folder, remote: remote), try SyncTestDevice("b", in: folder, remote: remote),
            try SyncTestDevice("c", in: folder, remote: remote)
        )
        try await a.enable()
        try await b.enable()
        try await c.enable()
        _ = try a.add("Example", "alice")
        // C stands for a device that joined before the authority existed.
        let store = try XCTUnwrap(try SyncStore.openIfPresent(in: c.vault.location))
        try store.updateState {
            $0.authorityPublicKey = nil
            $0.sealedDeviceKey = nil
        }
        _ = try await a.service().changePassphrase(
            current: .passphrase(SecretBytes(utf8: SyncTestDevice.passphrase)),
            newPassphrase: SecretBytes(utf8: "the new passphrase"), newRecoveryKey: false,
            kdf: try KDFParameters.minimumForTesting(), announce: { _, _ in })

        let pinned = try await b.sync().rejectedObjects
        XCTAssertTrue(pinned.isEmpty, "the pinned device takes the new key and manifest: \(pinned)")
        XCTAssertEqual(try b.labels, try a.labels)
        do {
            _ = try await c.sync()
            XCTFail("a device with no key of its own cannot follow the change")
        } catch let error as SyncError {
            XCTAssertTrue(error.message.contains("turn sync off here and on again"), error.message)
            XCTAssertEqual(error.nextStep, .rejoinSync)
        }
        let stillPinned = try await b.sync().rejectedObjects
        XCTAssertTrue(stillPinned.isEmpty, "\(stillPinned)")
    }
}
