import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

/// keepassxc.csv is KeePassXC 2.7.4's own output: a KeePass 2 XML file with
/// the standard accounts (as `otp` URIs, KeeOtp's `key=` settings and the
/// legacy `TOTP Seed`/`TOTP Settings` fields) imported by
/// `keepassxc-cli import`, then `keepassxc-cli export --format csv`, which
/// writes every code as an otpauth:// URI.
final class KeePassXCFormatTests: XCTestCase {
    private static let header =
        #""Group","Title","Username","Password","URL","Notes","TOTP","Icon","Last Modified","Created""#

    private func parse(_ rows: [String]) throws -> ParsedImport {
        try KeePassXCFormat.parse(Data(([Self.header] + rows).joined(separator: "\n").utf8), context: ImportContext())
    }

    func testKeePassXCsOwnExport() throws {
        let parsed = try KeePassXCFormat.parse(Fixture.data("keepassxc.csv"), context: ImportContext())
        var github = ExpectedAccount.standard[0]
        github.tags = ["Work"]
        github.note = "recovery codes in the safe"
        assertEntries(
            parsed,
            [
                ExpectedAccount.standard[1], ExpectedAccount.standard[2], ExpectedAccount.standard[4],
                ExpectedAccount(issuer: "Legacy", name: "erin", digits: 7, period: 60, secret: "MFRGGZDFMZTWQ2LK"),
                github,
            ])
        XCTAssertEqual(parsed.entries.map(\.position.description), ["row 2", "row 3", "row 4", "row 5", "row 7"])
        XCTAssertEqual(parsed.warnings, ["1 entry has no TOTP and was left out"])
    }

    func testKeeOtpSettingsOfEveryKind() throws {
        let parsed = try parse([
            "\"Root/Work/Dev\",\"HOTP Corp\",\"bob\",\"pw\",\"\",\"a \"\"quoted\"\", multi-line\nnote\","
                + #""key=MFRGGZDFMZTWQ2LK&type=Hotp&counter=42","0","","""#,
            #""Root","Site","","pw","","","key=JBSWY3DPEHPK3PXP&step=45&size=7&otpHashMode=Sha256","0","","""#,
        ])
        assertEntries(
            parsed,
            [
                ExpectedAccount(
                    issuer: "HOTP Corp", name: "bob", kind: .hotp, counter: 42, secret: "MFRGGZDFMZTWQ2LK",
                    tags: ["Work/Dev"], note: "a \"quoted\", multi-line\nnote"),
                ExpectedAccount(
                    issuer: "", name: "Site", algorithm: .sha256, digits: 7, period: 45, secret: "JBSWY3DPEHPK3PXP"),
            ])
    }

    func testBadRowsAreRejectedByRowWithoutTheirSecrets() throws {
        let parsed = try parse([
            #""Root","A","a","","","","key=JBSWY3DP0HPK3PXP&step=30","0","","""#,
            #""Root","B","b","","","","secret=JBSWY3DPEHPK3PXP","0","","""#,
            #""Root","C","c","","","","key=JBSWY3DPEHPK3PXP&otpHashMode=Md4","0","","""#,
            #""Root","D","d","","","","otpauth://totp/D:d?secret=JBSWY3DPEHPK3PXP&digits=99","0","","""#,
            // A row whose quoting went wrong (another width), and a title that holds a code.
            #""Root","E otpauth://totp/E:e?secret=JBSWY3DPEHPK3PXP","e","","","","bad","0","","","extra""#,
            #""Root","F secret=JBSWY3DPEHPK3PXP","f","","","","bad","0","","""#,
        ])
        XCTAssertEqual(parsed.entries.count, 0)
        XCTAssertEqual(
            parsed.rejections.map(\.position.description), ["row 2", "row 3", "row 4", "row 5", "row 6", "row 7"])
        XCTAssertEqual(parsed.rejections.suffix(2).map(\.label), [nil, nil])
        XCTAssertEqual(
            parsed.rejections[1].description, "row 3 (B:b): its TOTP is neither an otpauth:// URI nor key=… settings")
        for rejection in parsed.rejections {
            XCTAssertFalse(rejection.description.contains("JBSWY3DP"), rejection.description)
        }
    }

    func testDamagedAndHostileFiles() {
        let cases: [(String, String)] = [
            ("\"Group\",\"Title\"\n\"Root\",\"x\"", "its first row names no TOTP column"),
            (Self.header + "\n\"Root\",\"unclosed", "row 2 opens a quoted field it never closes"),
            (
                Self.header + "\n" + String(repeating: ",", count: CSVRows.maximumColumns),
                "row 2 has more than 256 columns"
            ),
        ]
        for (text, why) in cases {
            XCTAssertThrowsError(try KeePassXCFormat.parse(Data(text.utf8), context: ImportContext())) {
                XCTAssertEqual("\($0)", "this is not a valid KeePassXC export: \(why)")
            }
        }
        let many =
            Self.header
            + String(repeating: "\n\"Root\",\"T\",\"u\",\"\",\"\",\"\",\"x\"", count: ParsedImport.maximumEntries + 1)
        XCTAssertThrowsError(try KeePassXCFormat.parse(Data(many.utf8), context: ImportContext())) {
            XCTAssertTrue("\($0)".contains("it holds more than 100000 entries"), "\($0)")
        }
    }
}
