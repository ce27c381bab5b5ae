import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

final class TwoFASFormatTests: XCTestCase {
    func testBackupWithAllKindsAndAGroup() throws {
        let parsed = try TwoFASFormat.parse(Fixture.data("twofas.2fas"), context: ImportContext())
        var expected = ExpectedAccount.standard(tags: [["Work"]])
        expected.append(
            ExpectedAccount(issuer: "", name: "Only A Service", secret: "MFRGGZDFMZTWQ2LK", note: "no account name"))
        assertEntries(parsed, expected)
        XCTAssertTrue(parsed.rejections.isEmpty, "\(parsed.rejections)")
    }

    func testEncryptedBackupIsExplained() {
        let data = Data(#"{"services": [], "servicesEncrypted": "abc:def:ghi", "schemaVersion": 4}"#.utf8)
        XCTAssertThrowsError(try TwoFASFormat.parse(data, context: ImportContext())) { error in
            guard case .encryptedUnsupported(.twoFAS, _)? = error as? ImportError else { return XCTFail("\(error)") }
        }
    }

    func testMalformedServices() throws {
        let data = Data(
            #"{"services": [{"name": "A"}, {"name": "B", "secret": 12}, {"name": "C", "secret": "JBSWY3DPEHPK3PXP", "otp": {"tokenType": "MOTP"}}], "groups": []}"#
                .utf8)
        let parsed = try TwoFASFormat.parse(data, context: ImportContext())
        XCTAssertTrue(parsed.entries.isEmpty)
        XCTAssertEqual(parsed.rejections.map(\.kind), ["invalid", "invalid", "unsupported"])
        XCTAssertEqual(parsed.rejections[0].message, "field 'secret' is missing")
        XCTAssertThrowsError(try TwoFASFormat.parse(Data(#"{"services": 3}"#.utf8), context: ImportContext()))
        XCTAssertThrowsError(
            try TwoFASFormat.parse(Data(#"{"services": [], "groups": [{"id": 1}]}"#.utf8), context: ImportContext()))
    }
}
