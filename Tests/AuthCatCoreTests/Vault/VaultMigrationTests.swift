import Foundation
import XCTest

@testable import AuthCatCore
@testable import AuthCatEssentials

/// Vaults written by past versions of authcat must open, unchanged in meaning, with today's code.
final class VaultMigrationTests: VaultTestCase {
    private func openFixture(_ name: String) throws -> Vault {
        let fixture = try XCTUnwrap(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
        try FileManager.default.copyItem(at: fixture, to: location.folder)
        // git keeps no modes: give the copy the ones authcat writes.
        chmod(location.folder.path, 0o700)
        chmod(location.databaseURL.path, 0o600)
        chmod(location.keyFileURL.path, 0o600)
        return try Vault.open(at: location, clock: clock)
    }

    /// The quick front reads only vaults whose migrations are exactly these.
    func testTheFrontKnowsEveryMigration() {
        XCTAssertEqual(Vault.migrator.migrations, VaultSchemaVersion.migrations)
    }

    func testVersion1VaultOpensWithAllItsData() throws {
        let vault = try openFixture("vault-v1")
        let accounts = try vault.accounts(includingDeleted: true)
        XCTAssertEqual(accounts.map(\.label), ["Bank:bob", "GitHub:alice"])
        let bob = accounts[0]
        XCTAssertEqual(bob.otp, OTPParameters(kind: .hotp, algorithm: .sha256, digits: 8, period: 30, counter: 5))
        XCTAssertEqual(bob.note, "café")
        XCTAssertNotNil(bob.deletedAt)
        XCTAssertEqual(accounts[1].tags, ["work"])
        XCTAssertEqual(try vault.accounts().map(\.label), ["GitHub:alice"])
        XCTAssertEqual(
            try vault.generateCode(for: accounts[1], at: Date(timeIntervalSince1970: 59)).code.value, "287082")
        XCTAssertEqual(try vault.preferences(), ["theme": "dark"])
        XCTAssertEqual(try vault.history().map(\.author), [.cli, .cli, .cli, .cli])
        XCTAssertEqual(try vault.history().last?.device.name, "fixture-host")
    }

    func testVersion1VaultAcceptsNewWrites() throws {
        let vault = try openFixture("vault-v1")
        try add(vault, draft("carol"))
        XCTAssertEqual(try vault.accounts().count, 2)
    }

    /// Migration `v3-sync-key-history` keeps every change of the old history
    /// and takes rotations of the sync key, with the revoked devices' names.
    func testVersion1VaultKeepsItsHistoryAndRecordsARotation() throws {
        let vault = try openFixture("vault-v1")
        let before = try vault.history()
        XCTAssertFalse(before.flatMap(\.changes).isEmpty)
        try vault.write(author: .cli) { writer in
            try writer.recordSyncKeyRotation(
                epoch: 3, revoked: [DeviceReference(id: "3d7352bf6db19a6e", name: "old laptop")])
        }
        let after = try vault.history()
        XCTAssertEqual(Array(after.dropFirst()), before)
        XCTAssertEqual(
            after.first?.changes,
            [
                HistoryChange(entity: .syncKey, recordID: "3", kind: .rotate, fields: []),
                HistoryChange(
                    entity: .device, recordID: "3d7352bf6db19a6e", kind: .revoke, fields: [], label: "old laptop"),
            ])
        XCTAssertEqual(after.first?.author, .cli)
    }
}
