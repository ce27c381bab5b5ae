import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

final class AuthenticatorDatabaseFormatsTests: XCTestCase {
    func testGoogleAuthenticatorDatabase() throws {
        let parsed = try GoogleAuthenticatorDatabaseFormat.parse(
            Fixture.data("google_authenticator.sqlite"), context: ImportContext())
        // Google Authenticator keeps no algorithm, digits or period: SHA1, 6 digits, 30 s.
        let expected = [ExpectedAccount.deno, .spdx, .airbnb, .issuu, .airCanada, .wwe].map {
            vector -> ExpectedAccount in
            var account = vector
            (account.algorithm, account.digits, account.period) = (.sha1, 6, 30)
            return account
        }
        assertEntries(parsed, expected)
        XCTAssertTrue(parsed.rejections.isEmpty, "\(parsed.rejections)")
    }

    func testMicrosoftAuthenticatorDatabase() throws {
        let parsed = try MicrosoftAuthenticatorFormat.parse(
            Fixture.data("microsoft_authenticator.sqlite"), context: ImportContext())
        // Microsoft Authenticator keeps only TOTP of SHA1, 6 digits, 30 s.
        let expected = ExpectedAccount.aegisVectors.map {
            ExpectedAccount(issuer: $0.issuer, name: $0.name, secret: $0.secret)
        }
        assertEntries(parsed, expected)
    }

    func testHostileDatabasesAreRefusedQuicklyAndWriteNothing() throws {
        XCTAssertThrowsError(
            try GoogleAuthenticatorDatabaseFormat.parse(Fixture.data("hostile_view.sqlite"), context: ImportContext())
        ) { XCTAssertEqual($0 as? ImportError, .malformed(.googleAuthenticatorDatabase, "it has no table 'accounts'")) }
        // The gigabyte blob is never made: the row comes without it, and is rejected.
        let generated = try GoogleAuthenticatorDatabaseFormat.parse(
            Fixture.data("hostile_generated.sqlite"), context: ImportContext())
        XCTAssertEqual(generated.rejections.map(\.message), ["its secret is not text"])
        let folder = try XCTUnwrap(
            Bundle.module.url(forResource: "Fixtures/hostile_trigger.sqlite", withExtension: nil)?
                .deletingLastPathComponent())
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let parsed = try GoogleAuthenticatorDatabaseFormat.parse(
            Fixture.data("hostile_trigger.sqlite"), context: ImportContext())
        assertEntries(parsed, [ExpectedAccount(issuer: "A", name: "a", secret: "JBSWY3DPEHPK3PXP")])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), before)
    }

    func testDamagedDatabasesAndRowBounds() throws {
        let google = try Fixture.data("google_authenticator.sqlite")
        for length in [16, 100, 4096, google.count / 2] {
            XCTAssertThrowsError(
                try GoogleAuthenticatorDatabaseFormat.parse(google.prefix(length), context: ImportContext())
            ) { XCTAssertNotNil($0 as? ImportError, "\(length): \($0)") }
        }
        XCTAssertThrowsError(try SQLiteSnapshot(Data("not a database".utf8)))
        XCTAssertThrowsError(try SQLiteSnapshot(google).rows(of: "accounts", columns: ["email"], limit: 5)) {
            XCTAssertEqual("\($0)", "its table 'accounts' has more than 5 rows")
        }
        XCTAssertEqual(
            try SQLiteSnapshot(google).rows(of: "accounts", columns: ["email", "nothing"], limit: 6).count, 6)
        // Google's table read as Microsoft's: no column it needs, every row rejected.
        let wrongApp = try MicrosoftAuthenticatorFormat.parse(google, context: ImportContext())
        XCTAssertTrue(wrongApp.entries.isEmpty)
        XCTAssertEqual(wrongApp.rejections.count, 6)
    }
}
