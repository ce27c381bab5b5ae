import AuthCatTestSupport
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatCore
@testable import AuthCatEssentials

/// Base for tests that need a vault in a fresh folder and a fixed clock.
class VaultTestCase: XCTestCase {
    var folder: TemporaryFolder!
    var clock: ManualClock!
    var location: VaultLocation!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        clock = ManualClock()
        location = VaultLocation(folder: folder.url("vault"))
    }

    override func tearDown() {
        folder = nil
    }

    func makeVault() throws -> Vault {
        try Vault.openOrCreate(at: location, deviceName: "test-device", clock: clock)
    }

    func draft(
        _ name: String, issuer: String = "Example", secret: String = "12345678901234567890",
        otp: OTPParameters = OTPParameters(), tags: [String] = []
    ) -> AccountDraft {
        AccountDraft(issuer: issuer, name: name, otp: otp, tags: tags, secret: SecretBytes(Array(secret.utf8)))
    }

    @discardableResult
    func add(_ vault: Vault, _ draft: AccountDraft) throws -> Account {
        try vault.write(author: .cli) { try $0.insert(draft) }
    }

    /// Every file of the vault, byte for byte, to prove a failed command changed nothing.
    /// SQLite's `-shm` index is left out: any reader rewrites it, and it holds no data.
    func snapshotFiles() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: location.folder.path)
        where !name.hasSuffix("-shm") {
            files[name] = FileManager.default.contents(atPath: location.folder.appendingPathComponent(name).path)
        }
        return files
    }
}
