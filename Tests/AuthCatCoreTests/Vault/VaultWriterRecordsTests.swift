import XCTest

@testable import AuthCatCore
@testable import AuthCatEssentials

final class VaultWriterRecordsTests: VaultTestCase {
    func testInsertDeletedNeedsNoFreeLabelAndCanBeRestoredOnceTheLabelIsFree() throws {
        let vault = try makeVault()
        let live = try add(vault, draft("alice"))
        let tombstone = try vault.write(author: .cli) { try $0.insertDeleted(draft("alice"), id: UUID()) }
        XCTAssertNotNil(tombstone.deletedAt)
        XCTAssertEqual(try vault.accounts().map(\.id), [live.id])
        XCTAssertEqual(
            try vault.history(recordID: tombstone.id.vaultString).first?.changes.map(\.kind), [.insert, .delete])
        try vault.write(author: .cli) { try $0.delete(live.id) }
        try vault.write(author: .restore) { _ = try $0.undelete(tombstone.id) }
        XCTAssertEqual(try vault.accounts().map(\.id), [tombstone.id])
    }

    func testLatestHistoryNumberSkipsTheGivenAuthor() throws {
        let vault = try makeVault()
        try add(vault, draft("alice"))
        let cli = try vault.latestHistoryNumber()
        try vault.write(author: .sync(from: DeviceReference(id: "d", name: "other"))) {
            try $0.setPreference("k", to: "v")
        }
        XCTAssertEqual(try vault.write(author: .cli) { try $0.latestHistoryNumber(excluding: .sync) }, cli)
        XCTAssertEqual(try vault.write(author: .cli) { try $0.latestHistoryNumber(excluding: .cli) }, cli + 1)
    }

    func testDerivedKeysDependOnContextAndVault() throws {
        let vault = try makeVault()
        XCTAssertEqual(try vault.derivedKey(context: "testctx1"), try vault.derivedKey(context: "testctx1"))
        XCTAssertNotEqual(try vault.derivedKey(context: "testctx1"), try vault.derivedKey(context: "testctx2"))
        XCTAssertNotEqual(try vault.derivedKey(context: "testctx1"), try vault.key())
    }
}
