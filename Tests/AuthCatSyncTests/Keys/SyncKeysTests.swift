import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import XCTest

@testable import AuthCatSync

final class SyncKeysTests: XCTestCase {
    func testTheObjectKeyIsTheDocumentedSubkeyOfTheMasterKey() throws {
        let master = SecretBytes(Array(0..<32).map(UInt8.init))
        let keys = try SyncKeys(masterKey: master)
        XCTAssertEqual(keys.objectKey, try SubkeyDerivation.derive(from: master, id: 1, context: "acsyncob"))
        XCTAssertNotEqual(keys.objectKey, master)
        XCTAssertNotEqual(keys.objectKey, try SubkeyDerivation.derive(from: master, id: 2, context: "acsyncob"))
    }

    func testTheLocallySealedMasterKeyOpensOnlyForItsVaultAndDevice() throws {
        let folder = try makeTemporaryFolder().url
        let vault = try Vault.openOrCreate(
            at: VaultLocation(folder: folder.appendingPathComponent("v")), deviceName: "a")
        let keys = try SyncKeys.generate()
        let sealed = try keys.sealedLocally(vault: vault, remoteVaultID: "r1", deviceID: "d1")
        XCTAssertEqual(
            try SyncKeys.unsealLocally(sealed, vault: vault, remoteVaultID: "r1", deviceID: "d1").masterKey,
            keys.masterKey)
        XCTAssertThrowsError(try SyncKeys.unsealLocally(sealed, vault: vault, remoteVaultID: "r2", deviceID: "d1"))
        let other = try Vault.openOrCreate(
            at: VaultLocation(folder: folder.appendingPathComponent("w")), deviceName: "b")
        XCTAssertThrowsError(try SyncKeys.unsealLocally(sealed, vault: other, remoteVaultID: "r1", deviceID: "d1"))
    }
}
