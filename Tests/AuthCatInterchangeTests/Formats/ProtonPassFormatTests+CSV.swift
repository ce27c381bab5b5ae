import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

/// Proton Pass's CSV export, as its importer's own test file lays it out:
/// `type,name,url,email,username,password,note,totp,createTime,modifyTime,vault`.
extension ProtonPassFormatTests {
    private static let header = "type,name,url,email,username,password,note,totp,createTime,modifyTime,vault"

    private func parseCSV(_ rows: [String], header: String = header) throws -> ParsedImport {
        try ProtonPassFormat.parse(
            Data(([header] + rows).joined(separator: "\r\n").utf8), context: .failingIfAsked())
    }

    func testTheCSVExport() throws {
        let parsed = try parseCSV([
            "note,Shopping,,,,,milk,,1706621831,1707735222,Personal",
            #"login,GitHub,"https://github.com/, https://gh.io/",alice@example.com,,pw,"two"#
                + "\nlines\",JBSWY3DPEHPK3PXP,1707735320,1707735349,Work",
            "login,Bank,,li@example.com,li,pw,,otpauth://totp/%C3%9Cn%C3%AFc%C3%B8d%C3%A9%20Bank:"
                + "%E6%9D%8E%E9%9B%B7%20%F0%9F%90%B1?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
                + "&issuer=%C3%9Cn%C3%AFc%C3%B8d%C3%A9%20Bank&algorithm=SHA256&digits=8&period=60,1,2,Personal",
            "login,Broken,,,b,pw,,JBSWY3DP0HPK3PXP,1,2,Personal",
        ])
        var bank = ExpectedAccount.standard[1]
        bank.tags = ["Personal"]
        assertEntries(
            parsed,
            [
                ExpectedAccount(
                    issuer: "GitHub", name: "alice@example.com", secret: "JBSWY3DPEHPK3PXP", tags: ["Work"],
                    note: "two\nlines"),
                bank,
            ])
        XCTAssertEqual(parsed.entries.map(\.position.description), ["row 3", "row 4"])
        XCTAssertEqual(parsed.rejections.map(\.position.description), ["row 5"])
        XCTAssertFalse(parsed.rejections[0].description.contains("JBSWY3DP"), parsed.rejections[0].description)
        XCTAssertEqual(parsed.warnings, ["1 item has no one-time password and was left out"])
    }

    func testAnOlderCSVWithoutTypeEmailOrVault() throws {
        let parsed = try parseCSV(
            ["Site,,bob,pw,,MFRGGZDFMZTWQ2LK,1,2"], header: "name,url,username,password,note,totp,createTime,modifyTime"
        )
        assertEntries(parsed, [ExpectedAccount(issuer: "Site", name: "bob", secret: "MFRGGZDFMZTWQ2LK")])
    }

    func testTheCSVIsRecognised() throws {
        let csv = Data((Self.header + "\nlogin,A,,,a,pw,,JBSWY3DPEHPK3PXP,1,2,V\n").utf8)
        XCTAssertEqual(try FormatDetector.detect(csv), .protonPass)
        // Another app's CSV of logins, without Proton Pass's timestamps, is not.
        XCTAssertThrowsError(try FormatDetector.detect(Data("name,url,username,password,note,totp\n".utf8))) {
            XCTAssertEqual($0 as? ImportError, .unrecognizedFormat)
        }
    }

    func testADamagedCSV() {
        XCTAssertThrowsError(try parseCSV([#"login,"unclosed"#])) {
            XCTAssertEqual(
                "\($0)", "this is not a valid Proton Pass export: row 2 opens a quoted field it never closes")
        }
        XCTAssertThrowsError(try parseCSV([], header: "name,url")) {
            XCTAssertEqual("\($0)", "this is not a valid Proton Pass export: its first row names no totp column")
        }
    }
}
