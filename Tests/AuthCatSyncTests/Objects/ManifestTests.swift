import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import XCTest

@testable import AuthCatSync

final class ManifestTests: XCTestCase {
    func testUnlocksWithThePassphraseOrTheRecoveryKeyOnly() throws {
        let keys = try SyncKeys.generate()
        let recovery = try RecoveryKey.generate()
        let manifest = try Manifest.make(
            vaultID: "v1", keys: keys, passphrase: SecretBytes(utf8: "right"), recoveryKey: recovery,
            kdf: KDFParameters.minimumForTesting(), createdAt: Date())
        let decoded = try Manifest.decode(manifest.encoded(), expectedVaultID: "v1")
        XCTAssertEqual(try decoded.unlock(with: .passphrase(SecretBytes(utf8: "right"))).masterKey, keys.masterKey)
        XCTAssertEqual(
            try decoded.unlock(with: .recoveryKey(SecretBytes(utf8: recovery.formatted))).masterKey, keys.masterKey)
        for wrong: SyncSecret in [
            .passphrase(SecretBytes(utf8: "wrong")),
            .recoveryKey(SecretBytes(utf8: try RecoveryKey.generate().formatted)),
        ] {
            XCTAssertThrowsError(try decoded.unlock(with: wrong)) { XCTAssertEqual($0 as? SyncError, .wrongPassphrase) }
        }
    }

    func testAManifestMovedToAnotherVaultIdDoesNotUnlock() throws {
        let keys = try SyncKeys.generate()
        var manifest = try Manifest.make(
            vaultID: "v1", keys: keys, passphrase: SecretBytes(utf8: "right"),
            recoveryKey: RecoveryKey.generate(), kdf: KDFParameters.minimumForTesting(), createdAt: Date())
        manifest.vaultID = "v2"
        XCTAssertThrowsError(try manifest.unlock(with: .passphrase(SecretBytes(utf8: "right"))))
        XCTAssertThrowsError(try Manifest.decode(manifest.encoded(), expectedVaultID: "v1"))
        XCTAssertThrowsError(try Manifest.decode(Data("not json".utf8), expectedVaultID: "v1"))
    }
}
