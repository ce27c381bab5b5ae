import Foundation
import XCTest

@testable import AuthCatInterchange

final class AndOTPFormatTests: XCTestCase {
    func testPlainBackupWithTagsAndOldStyleLabels() throws {
        let parsed = try AndOTPFormat.parse(Fixture.data("andotp.json"), context: ImportContext())
        assertEntries(parsed, ExpectedAccount.standard(tags: [["Work"], ["Bank ✓", "Work"]]))
        XCTAssertEqual(parsed.rejections.map(\.kind), ["unsupported"])
        XCTAssertEqual(parsed.rejections.first?.position, .entry(6))
        // Its MOTP entry: the message says which types andOTP files bring, and where mOTP comes in.
        let message = try XCTUnwrap(parsed.rejections.first?.message)
        XCTAssertTrue(message.contains("TOTP, HOTP and Steam") && message.contains("--type motp"), message)
    }

    func testEncryptedOrWrongShapedBackupsFailWithAHint() {
        XCTAssertThrowsError(try AndOTPFormat.parse(Data([0x12, 0x00, 0x99, 0xfe]), context: ImportContext())) {
            error in
            XCTAssertTrue("\(error)".contains("plain backup"), "\(error)")
        }
        XCTAssertThrowsError(try AndOTPFormat.parse(Data(#"{"secret": "A"}"#.utf8), context: ImportContext()))
    }

    func testWrongTypesInEntries() throws {
        let data = Data(
            #"[{"secret": "JBSWY3DPEHPK3PXP", "label": "a", "digits": 6.5}, {"secret": "JBSWY3DPEHPK3PXP", "label": "b", "tags": "x"}]"#
                .utf8)
        let parsed = try AndOTPFormat.parse(data, context: ImportContext())
        XCTAssertEqual(
            parsed.rejections.map(\.message),
            ["field 'digits' should be a whole number", "field 'tags' should be a list, not a string"])
    }
}
