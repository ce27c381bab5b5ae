import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

final class BitwardenFormatTests: XCTestCase {
    func testItemsWithTOTPBecomeAccounts() throws {
        let parsed = try BitwardenFormat.parse(Fixture.data("bitwarden.json"), context: ImportContext())
        var expected = ExpectedAccount.standard(tags: [["Work"]], notes: ["recovery codes in the safe"])
        expected.append(ExpectedAccount(issuer: "Plain Secret", name: "carol", secret: "MFRGGZDFMZTWQ2LK"))
        assertEntries(parsed, expected)
        XCTAssertEqual(parsed.entries.map(\.position.description).last, "item 6")
        XCTAssertEqual(parsed.warnings, ["2 items have no TOTP secret and were ignored"])
    }

    func testEncryptedExportIsExplained() {
        let data = Data(#"{"encrypted": true, "encKeyValidation_DO_NOT_EDIT": "2.x", "data": "2.y"}"#.utf8)
        XCTAssertThrowsError(try BitwardenFormat.parse(data, context: ImportContext())) { error in
            guard case .encryptedUnsupported(.bitwarden, _)? = error as? ImportError else { return XCTFail("\(error)") }
        }
    }

    func testBadTOTPValues() throws {
        let data = Data(
            #"{"items": [{"name": "A", "login": {"totp": 12}}, {"name": "B", "login": {"totp": "otpauth://totp/B?secret=1"}}]}"#
                .utf8)
        let parsed = try BitwardenFormat.parse(data, context: ImportContext())
        XCTAssertEqual(parsed.rejections.map(\.position.description), ["item 1", "item 2"])
        XCTAssertEqual(parsed.rejections.first?.message, "field 'login.totp' should be a string, not a number")
    }
}
