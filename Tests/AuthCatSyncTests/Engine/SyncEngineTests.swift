import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import GRDB
import XCTest

@testable import AuthCatSync

final class SyncEngineTests: SyncEngineTestCase {
    func testTwoDevicesExchangeAccountsAndEdits() async throws {
        let a = try device("a")
        let github = try a.add("GitHub", "alice")
        let created = try await a.enable()
        XCTAssertEqual(created.outcome, .created)
        XCTAssertNotNil(created.recoveryKey)
        try await a.sync()

        let b = try device("b")
        _ = try b.add("Mastodon", "bob")
        let joined = try await b.enable()
        XCTAssertEqual(joined.outcome, .joined)
        let report = try await b.sync()
        XCTAssertEqual(report.importedChanges, 1)
        XCTAssertEqual(try b.labels, ["GitHub:alice", "Mastodon:bob"])

        try b.edit(github.id, AccountEdit(note: "work"))
        try await b.sync()
        try await a.sync()
        XCTAssertEqual(try a.fingerprint(), try b.fingerprint())
        XCTAssertEqual(try a.vault.account(id: github.id)?.note, "work")
    }

    /// Every failure of a sync reaches the monitor, also one after its objects
    /// went out (reading the devices it saw), so that `sync status` never
    /// shows a sync that failed as succeeded.
    func testAFailureAfterTheObjectsWentOutIsRecorded() async throws {
        let a = try device("a")
        try await a.enable()
        try a.add("GitHub", "alice")
        let location = a.vault.location
        let breaking = AtFirstWrite(remote) {
            try XCTUnwrap(try SyncStore.openIfPresent(in: location)).write { try $0.execute(sql: "DROP TABLE peer") }
        }
        a.remote = breaking
        let error = await syncError { try await a.sync() }
        XCTAssertNotNil(error)
        XCTAssertNoThrow(try breaking.actionOutcome?.get(), "the store was broken as planned")
        XCTAssertNotNil(breaking.actionOutcome, "after the first object went out")
        let last = try XCTUnwrap(a.events.events.last)
        XCTAssertEqual(last.phase, .export)
        XCTAssertEqual(last.kind, .failed)
    }
}
