import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatInterchange

/// Base for tests that need a vault in a fresh folder and a fixed clock.
class InterchangeTestCase: XCTestCase {
    var folder: TemporaryFolder!
    var clock: ManualClock!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
        clock = ManualClock()
    }

    override func tearDown() {
        folder = nil
    }

    func makeVault(_ name: String = "vault") throws -> Vault {
        try Vault.openOrCreate(at: VaultLocation(folder: folder.url(name)), deviceName: "test-device", clock: clock)
    }

    @discardableResult
    func add(_ vault: Vault, _ accounts: [ExpectedAccount]) throws -> [Account] {
        try vault.write(author: .cli) { writer in try accounts.map { try writer.insert($0.draft) } }
    }

    /// The vault's live accounts as expectations, in display order.
    func contents(of vault: Vault) throws -> [ExpectedAccount] {
        try vault.accounts().map { ExpectedAccount($0, secret: try vault.secret(for: $0.id)) }
    }

    /// Every file of the vault, byte for byte, to prove a failed command changed nothing.
    /// SQLite's `-shm` index is left out: any reader rewrites it, and it holds no data.
    func snapshot(_ vault: Vault) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let folder = vault.location.folder
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasSuffix("-shm") {
            files[name] = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
        }
        return files
    }

    /// `expected` sorted the way the vault lists accounts.
    func displayOrder(_ expected: [ExpectedAccount]) -> [ExpectedAccount] {
        expected.sorted {
            ($0.issuer.lowercased(), $0.name.lowercased()) < ($1.issuer.lowercased(), $1.name.lowercased())
        }
    }
}
