import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

/// onepassword.1pux is made by Fixtures/make_zip_exports.py from 1Password's
/// description of its 1PUX format: the standard accounts as bare secrets and
/// otpauth URIs in section fields, with tags, a note, an item with two codes,
/// archived and deleted items, an item without a code, an item named by its URL.
final class OnePasswordFormatTests: XCTestCase {
    private func parse(_ data: Data) throws -> ParsedImport {
        try OnePasswordFormat.parse(data, context: .failingIfAsked())
    }

    /// export.data of a 1PUX file holding `items` in one vault.
    private func export(_ items: [String]) -> Data {
        Data(#"{"accounts": [{"attrs": {}, "vaults": [{"attrs": {"name": "V"}, "items": ["#.utf8)
            + Data(items.joined(separator: ",").utf8) + Data("]}]}]}".utf8)
    }

    private func item(_ code: String, title: String = "Site", extra: String = "") -> String {
        #"{"state": "active", "overview": {"title": "\#(title)"}, \#(extra)"#
            + #""details": {"sections": [{"fields": [{"title": "one-time password", "value": {"totp": "\#(code)"}}]}]}}"#
    }

    func testTheExport() throws {
        let parsed = try parse(Fixture.data("onepassword.1pux"))
        assertEntries(
            parsed,
            [
                ExpectedAccount(
                    issuer: "GitHub", name: "alice@example.com", secret: "JBSWY3DPEHPK3PXP", tags: ["Work"],
                    note: "recovery codes in the safe"),
                ExpectedAccount.standard[1], ExpectedAccount.standard[2],
                ExpectedAccount(
                    issuer: "HOTP Corp", name: "bob", kind: .hotp, counter: 42, secret: "MFRGGZDFMZTWQ2LK",
                    tags: ["Personal", "Work/Ops"]),
                ExpectedAccount(issuer: "Twin", name: "carol", secret: "MFRGGZDFMZTWQ2LK"),
                ExpectedAccount(issuer: "Twin", name: "carol (backup)", secret: "GEZDGNBVGY3TQOJQ"),
                ExpectedAccount(issuer: "login.example.org", name: "frank", secret: "JBSWY3DPEHPK3PXP"),
            ])
        XCTAssertEqual(
            parsed.entries.map(\.position.description),
            [
                "vault 1, item 1", "vault 1, item 2", "vault 1, item 3", "vault 1, item 4", "vault 1, item 5, code 1",
                "vault 1, item 5, code 2", "vault 1, item 9",
            ])
        XCTAssertEqual(
            parsed.rejections.map(\.description),
            [
                "vault 1, item 6 (Old): it is archived in 1Password",
                "vault 1, item 7 (Gone): it is in 1Password's trash",
                "vault 2, item 1 (Legacy): it is in 1Password's trash",
            ])
        XCTAssertEqual(parsed.rejections.map(\.kind), ["unsupported", "unsupported", "unsupported"])
        XCTAssertEqual(parsed.warnings, ["1 item has no one-time password and was left out"])
    }

    func testExportDataAloneReadsAsTheArchive() throws {
        try assertFileAloneReadsAsItsArchive("onepassword.1pux", path: OnePasswordFormat.dataPath, .onePassword)
    }

    /// 1Password 8's first exports wrapped each item in `{"item": …}` and marked deleted ones `trashed`.
    func testItemsWrappedAsInTheFirstExports() throws {
        let parsed = try parse(
            export([
                #"{"item": \#(item("JBSWY3DPEHPK3PXP", title: "GitHub", extra: #""trashed": false,"#))}"#,
                #"{"item": \#(item("MFRGGZDFMZTWQ2LK", extra: #""trashed": true,"#))}"#,
            ]))
        assertEntries(parsed, [ExpectedAccount(issuer: "", name: "GitHub", secret: "JBSWY3DPEHPK3PXP")])
        XCTAssertEqual(parsed.rejections.map(\.description), ["vault 1, item 2 (Site): it is in 1Password's trash"])
    }

    func testBadCodesAreRejectedByPositionWithoutTheirSecrets() throws {
        let parsed = try parse(
            export([
                item("JBSWY3DP0HPK3PXP"), item(""), item("otpauth://totp/A:a?secret=JBSWY3DPEHPK3PXP&digits=99"),
                item("otpauth://totp/B?secret=JBSWY3DPEHPK3PXP&algorithm=MD4"),
                item("JBSWY3DPEHPK3PXQ", title: "JBSWY3DPEHPK3PXQ"),
                item("JBSWY3DPEHPK3PXP", extra: #""trashed": "yes","#),
            ]))
        XCTAssertEqual(parsed.entries.count, 1)
        XCTAssertEqual(
            parsed.rejections.map(\.position.description),
            ["vault 1, item 1", "vault 1, item 2", "vault 1, item 3", "vault 1, item 4", "vault 1, item 6"])
        XCTAssertEqual(parsed.rejections[1].description, "vault 1, item 2 (Site): its one-time password is empty")
        XCTAssertEqual(parsed.rejections[3].kind, "unsupported")
        XCTAssertEqual(ExpectedAccount(parsed.entries[0]).name, "JBSWY3DPEHPK3PXQ", "an item named like its code")
        for rejection in parsed.rejections {
            XCTAssertFalse(rejection.description.contains("JBSWY3DP"), rejection.description)
        }
    }

    func testDamagedAndHostileFiles() throws {
        let cases: [(Data, String)] = [
            (EmptyFilesZIP.archive(["export.attributes"]), "its archive has no export.data"),
            (try Fixture.data("zip_bomb.zip"), "its file 'export.data' holds more than its header says (a zip bomb?)"),
            (try Fixture.data("zip_runaway.zip"), "its ZIP archive is damaged or truncated"),
            (try Fixture.data("zip_dotdot.zip"), BoundedZIP.Failure.pathOutside.description),
            (try Fixture.data("onepassword.1pux").dropLast(), "its ZIP archive is damaged or truncated"),
            (Data(#"{"accounts": {}}"#.utf8), "it has no 'accounts' list"),
            (Data(#"[1]"#.utf8), "the file is not a JSON object"),
        ]
        for (data, why) in cases {
            XCTAssertThrowsError(try parse(data), why) {
                XCTAssertEqual($0 as? ImportError, .malformed(.onePassword, why))
                XCTAssertEqual("\($0)", "this is not a valid 1Password export: \(why)")
            }
        }
        // Vaults and items of the wrong shape are not items with a code.
        let odd = Data(#"{"accounts": [{"vaults": [1, {"items": [null, "x", {"details": 3}]}]}, 2]}"#.utf8)
        let parsed = try parse(odd)
        XCTAssertEqual(parsed.entryCount, 0)
        XCTAssertEqual(parsed.warnings, ["3 items have no one-time password and were left out"])
    }
}
