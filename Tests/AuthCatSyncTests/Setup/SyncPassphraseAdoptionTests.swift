import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// A passphrase change seen by the other devices: one that pinned the
/// authority takes it silently; one from before the authority reports it
/// until the new passphrase is typed on it once.
final class SyncPassphraseAdoptionTests: XCTestCase {
    var folder: URL!
    var remote: MemoryRemote!

    override func setUpWithError() throws {
        folder = try makeTemporaryFolder().url
        remote = MemoryRemote()
    }

    func testAPinnedDeviceTakesTheChangeAndAnUnpinnedOneAdoptsItByTypingThePassphraseOnce() async throws {
        let (a, b, c) = (
            try SyncTestDevice("a", in: folder, remote: remote), try SyncTestDevice("b", in: folder, remote: remote),
            try SyncTestDevice("c", in: folder, remote: remote)
        )
        try await a.enable()
        try await b.enable()
        try await c.enable()
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
        XCTAssertTrue(pinned.isEmpty, "the pinned device takes the signed manifest: \(pinned)")
        let unpinned = try await c.sync().rejectedObjects
        XCTAssertEqual(unpinned.count, 1)
        XCTAssertTrue(unpinned.first?.detail.contains("sync passphrase change") == true, "\(unpinned)")

        _ = try await c.service().changePassphrase(
            current: .passphrase(SecretBytes(utf8: "the new passphrase")),
            newPassphrase: SecretBytes(utf8: "the new passphrase"), newRecoveryKey: false,
            kdf: try KDFParameters.minimumForTesting(), announce: { _, _ in })
        XCTAssertNotNil(try store.state()?.authorityPublicKey)
        let adopted = try await c.sync().rejectedObjects
        XCTAssertTrue(adopted.isEmpty, "\(adopted)")
        let stillPinned = try await b.sync().rejectedObjects
        XCTAssertTrue(stillPinned.isEmpty, "\(stillPinned)")
    }
}
