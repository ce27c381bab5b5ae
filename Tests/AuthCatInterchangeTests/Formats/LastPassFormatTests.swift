import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

/// lastpass.json is built in the exports' layout (Fixtures/README.md):
/// renamed and original names, percent-escaped names, the app's folders and
/// one of the user's, a LastPass push account, every algorithm.
/// lastpass_android.json and lastpass_ios.json are the apps' own exports.
final class LastPassFormatTests: XCTestCase {
    private func parse(_ accounts: [String], folders: String = "[]") throws -> ParsedImport {
        let json = #"{"version":3,"accounts":["# + accounts.joined(separator: ",") + #"],"folders":"# + folders + "}"
        return try LastPassFormat.parse(Data(json.utf8), context: ImportContext())
    }

    /// The fixture `name`, asserted to hold exactly `expected`, with `sourceIDs`, and nothing rejected.
    @discardableResult
    private func assertExport(
        _ name: String, _ expected: [ExpectedAccount], sourceIDs: [String?], file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> ParsedImport {
        let parsed = try LastPassFormat.parse(Fixture.data(name), context: ImportContext())
        assertEntries(parsed, expected, file: file, line: line)
        XCTAssertEqual(parsed.entries.map(\.sourceID), sourceIDs, file: file, line: line)
        XCTAssertTrue(parsed.rejections.isEmpty, "\(parsed.rejections)", file: file, line: line)
        return parsed
    }

    func testTheExport() throws {
        var github = ExpectedAccount.standard[0]
        github.tags = ["Favorites"]
        var example = ExpectedAccount.standard[2]
        example.tags = ["Ünïcødé folder"]
        let lastPass = ExpectedAccount(issuer: "LastPass", name: "me@example.com", secret: "MFRGGZDFMZTWQ2LK")
        try assertExport(
            "lastpass.json", [github, ExpectedAccount.standard[1], example, lastPass],
            sourceIDs: ["a1", "a2", "a3", "a4"])
    }

    /// Android's export: version 3, `backupInfo`, every account in the
    /// default folder, secrets of lengths no byte string has (typed in by hand).
    func testAnAndroidExport() throws {
        let parsed = try assertExport(
            "lastpass_android.json",
            [
                ExpectedAccount(issuer: "issuer", name: "account name default", secret: "BDKSIEHWBDBBDBDZBY"),
                ExpectedAccount(
                    issuer: "other", name: "sha256", algorithm: .sha256, digits: 8, period: 20,
                    secret: "JDJSKDKDKDKDKDKD"),
                ExpectedAccount(issuer: "", name: "sha512 name", algorithm: .sha512, secret: "JDJDDJDJUEJEBDBFNE"),
            ],
            sourceIDs: [
                "c9ebcb42-6d85-4bf0-8bb4-414138c4660d", "de8cb856-d13a-4b75-a44e-2347300d7c54",
                "80cb78ed-46a2-4fca-bd2c-11523b1eb647",
            ])
        // 19 and 17 characters leave bits no byte holds, for the import to warn of; 18 leave only padding.
        XCTAssertEqual(parsed.entries.map { $0.draft.secretLeftover != nil }, [true, true, false])
    }

    /// iOS's export: version 1, no device secret, empty account ids, seven digits.
    func testAnIOSExport() throws {
        try assertExport(
            "lastpass_ios.json",
            [
                ExpectedAccount(issuer: "Lith", name: "Shanks", secret: "KQOZTMLOJBSMYWIO4BG4UTXDSQ"),
                ExpectedAccount(
                    issuer: "Ludi", name: "Roly Poly", algorithm: .sha256, digits: 7, period: 60,
                    secret: "LI3SJSNME7PSCQCXL2TIFMNH64"),
                ExpectedAccount(
                    issuer: "", name: "Todd", algorithm: .sha256, digits: 8, period: 60,
                    secret: "F7E5IPN2KYUXE5WZLMSRVTFK7M"),
            ],
            sourceIDs: [nil, nil, nil])
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
