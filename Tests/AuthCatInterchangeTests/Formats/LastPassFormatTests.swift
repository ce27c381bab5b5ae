import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

/// lastpass.json is built from the export's description (Fixtures/README.md):
/// renamed and original names, percent-escaped names, folders, a LastPass
/// push account, every algorithm.
final class LastPassFormatTests: XCTestCase {
    private func parse(_ accounts: [String], folders: String = "[]") throws -> ParsedImport {
        let json = #"{"version":3,"accounts":["# + accounts.joined(separator: ",") + #"],"folders":"# + folders + "}"
        return try LastPassFormat.parse(Data(json.utf8), context: ImportContext())
    }

    func testTheExport() throws {
        let parsed = try LastPassFormat.parse(Fixture.data("lastpass.json"), context: ImportContext())
        var github = ExpectedAccount.standard[0]
        github.tags = ["Work"]
        var example = ExpectedAccount.standard[2]
        example.tags = ["Ünïcødé folder"]
        assertEntries(
            parsed,
            [
                github, ExpectedAccount.standard[1], example,
                ExpectedAccount(issuer: "LastPass", name: "me@example.com", secret: "MFRGGZDFMZTWQ2LK"),
            ])
        XCTAssertEqual(parsed.entries.map(\.sourceID), ["a1", "a2", "a3", "a4"])
        XCTAssertTrue(parsed.rejections.isEmpty, "\(parsed.rejections)")
    }

    func testNamesAndFoldersByEveryRule() throws {
        let parsed = try parse(
            [
                #"{"issuerName":" 50% off ","userName":"","originalUserName":"o","secret":"JBSWY3DPEHPK3PXP","folderData":{"folderId":"7"}}"#,
                #"{"originalIssuerName":"Only Original","secret":"JBSWY3DPEHPK3PXP","timeStep":45,"digits":7}"#,
            ], folders: #"[{"id":7,"name":"Seven"},{"id":"x"}]"#)
        assertEntries(
            parsed,
            [
                ExpectedAccount(issuer: "50% off", name: "o", secret: "JBSWY3DPEHPK3PXP", tags: ["Seven"]),
                ExpectedAccount(issuer: "", name: "Only Original", digits: 7, period: 45, secret: "JBSWY3DPEHPK3PXP"),
            ])
    }

    func testBadAccountsAreRejectedByPositionWithoutTheirSecrets() throws {
        let parsed = try parse([
            #"{"issuerName":"A","userName":"a"}"#,
            #"{"issuerName":"B","userName":"b","secret":"JBSWY3DP1HPK3PXP"}"#,
            #"{"issuerName":"C","userName":"c","secret":"JBSWY3DPEHPK3PXP","algorithm":"MD4"}"#,
            #"{"issuerName":"D","userName":"d","secret":"JBSWY3DPEHPK3PXP","digits":99}"#,
            #"{"issuerName":"E","userName":"e","secret":"JBSWY3DPEHPK3PXP","timeStep":"30"}"#,
            #""JBSWY3DPEHPK3PXP""#,
        ])
        XCTAssertEqual(parsed.entries.count, 0)
        XCTAssertEqual(
            parsed.rejections.map(\.description),
            [
                "entry 1 (A:a): field 'secret' is missing",
                parsed.rejections[1].description,
                "entry 3 (C:c): algorithm 'MD4' is not supported (only SHA1, SHA256 and SHA512)",
                "entry 4 (D:d): digits must be between 6 and 10, not 99",
                "entry 5 (E:e): field 'timeStep' should be a number, not a string",
                "entry 6: the entry should be an object, not a string",
            ])
        XCTAssertTrue(parsed.rejections[1].description.hasPrefix("entry 2 (B:b): "))
        assertNoRejectionQuotes("JBSWY3DP", in: parsed)
    }

    func testDamagedFiles() {
        let cases: [(String, String)] = [
            ("[1]", "the file is not a JSON object"),
            (#"{"accounts":{"a":1}}"#, "field 'accounts' should be a list, not an object"),
            (#"{"accounts":[],"folders":[1]}"#, "a folder should be an object, not a number"),
        ]
        for (json, why) in cases {
            XCTAssertThrowsError(try LastPassFormat.parse(Data(json.utf8), context: ImportContext()), json) {
                XCTAssertEqual($0 as? ImportError, .malformed(.lastPass, why))
            }
        }
    }
}
