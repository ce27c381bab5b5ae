import Foundation
import GRDB
import XCTest

@testable import AuthCatCore
@testable import AuthCatEssentials

/// The account row is named once, in `AccountColumn`: the record writes those
/// columns, the migrations make exactly those, and the reader reads them back.
final class AccountRecordTests: VaultTestCase {
    func testTheRecordWritesEveryColumnOfTheTableByItsOneName() throws {
        let vault = try makeVault()
        let account = try add(vault, draft("alice"))
        let record = AccountRecord(account: account, sealedSecret: Data([1, 2, 3]))
        let written = Set(try record.databaseDictionary.keys)
        let table = Set(try vault.database.read { try $0.columns(in: "account").map(\.name) })
        let named = Set(AccountColumn.allCases.map(\.name))
        XCTAssertEqual(written, named)
        XCTAssertEqual(table, named)
    }

    func testAnAccountIsReadFromItsFieldsInTheirOrder() throws {
        let fields = AccountColumn.allCases.filter(\.isAccountField)
        XCTAssertEqual(fields.map(\.rawValue), Array(0..<Int32(fields.count)), "positions in a row")
        XCTAssertEqual(Set(AccountColumn.allCases.map(\.name)).count, AccountColumn.allCases.count)
        XCTAssertFalse(fields.contains(.sealedSecret), "a listing never reads a secret")
        let vault = try makeVault()
        var alice = self.draft("alice", otp: OTPParameters(kind: .hotp, algorithm: .sha512, digits: 8, counter: 7))
        alice.note = "a note"
        let added = try add(vault, alice)
        XCTAssertEqual(try vault.accounts(), [added])
    }
}
