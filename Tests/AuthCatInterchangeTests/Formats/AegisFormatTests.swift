@testable import AuthCatInterchange
import AuthCatCore
import Foundation
import XCTest

final class AegisFormatTests: XCTestCase {
    private let expected = ExpectedAccount.standard(tags: [["Work"], ["Bank ✓", "Work"]], notes: ["recovery codes in the safe"])

    func testPlainVaultWithGroupsNotesAndAllKinds() throws {
        let parsed = try AegisFormat.parse(Fixture.data("aegis_plain.json"), context: ImportContext())
        assertEntries(parsed, expected)
        XCTAssertEqual(parsed.rejections.count, 1)
        XCTAssertEqual(parsed.rejections.first?.position, .entry(6))
        XCTAssertEqual(parsed.rejections.first?.kind, "unsupported")
        XCTAssertEqual(parsed.rejections.first?.label, "Yandex:ivan")
    }

    func testEncryptedVaultWithThePassword() throws {
        let context = ImportContext(password: { SecretBytes(utf8: "test-password") })
        let parsed = try AegisFormat.parse(Fixture.data("aegis_encrypted.json"), context: context)
        assertEntries(parsed, expected)
    }

    func testEncryptedVaultWithAWrongPasswordOrNone() throws {
        let data = try Fixture.data("aegis_encrypted.json")
        XCTAssertThrowsError(try AegisFormat.parse(data, context: ImportContext(password: { SecretBytes(utf8: "wrong") }))) {
            XCTAssertEqual($0 as? ImportError, .wrongPassword(.aegis))
        }
        XCTAssertThrowsError(try AegisFormat.parse(data, context: ImportContext())) {
            XCTAssertEqual($0 as? ImportError, .passwordRequired)
        }
    }

    func testTamperedCiphertextIsRefused() throws {
        var document = try JSONSerialization.jsonObject(with: Fixture.data("aegis_encrypted.json")) as? [String: Any] ?? [:]
        var db = Data(base64Encoded: document["db"] as? String ?? "") ?? Data()
        db[db.startIndex] ^= 1
        document["db"] = db.base64EncodedString()
        let data = try JSONSerialization.data(withJSONObject: document)
        XCTAssertThrowsError(try AegisFormat.parse(data, context: ImportContext(password: { SecretBytes(utf8: "test-password") }))) {
            XCTAssertEqual($0 as? ImportError, .wrongPassword(.aegis))
        }
    }

    func testMalformedFilesFailCleanly() throws {
        let plain = try Fixture.text("aegis_plain.json")
        let cases: [(String, String)] = [
            (String(plain.prefix(plain.count / 2)), "not valid JSON"),
            (#"{"version": 1, "header": {}, "db": 5}"#, "no 'db'"),
            (#"{"version": 1, "header": {}, "db": {"entries": {}}}"#, "'entries' is not a list"),
            (#"{"version": 1, "header": {"slots": null}, "db": "AAAA"}"#, "not a list"),
            (#"[1, 2]"#, "not a JSON object"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try AegisFormat.parse(Data(text.utf8), context: ImportContext())) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error) should mention \(message)")
            }
        }
    }

    func testEntriesWithWrongTypesOrBadSecretsAreInvalid() throws {
        let text = """
            {"version": 1, "header": {"slots": null, "params": null}, "db": {"version": 2, "entries": [
              {"type": "totp", "name": "a", "issuer": "X", "info": {"secret": "JBSWY3DPEHPK3PXP", "digits": "6"}},
              {"type": "totp", "name": "b", "issuer": "X", "info": {"secret": "JBSWY3DP!HPK3PXP"}},
              {"type": "totp", "name": "c", "issuer": "X"},
              {"type": "totp", "name": "d", "issuer": "X", "info": {"secret": "JBSWY3DPEHPK3PXP", "period": 0}},
              "not an object",
              {"type": "hotp", "name": "f", "issuer": "X", "group": "Legacy", "info": {"secret": "JBSWY3DPEHPK3PXP", "counter": 7}}
            ]}}
            """
        let parsed = try AegisFormat.parse(Data(text.utf8), context: ImportContext())
        XCTAssertEqual(parsed.entries.map(\.label), ["X:f"])
        XCTAssertEqual(parsed.entries.first?.draft.tags, ["Legacy"])
        XCTAssertEqual(parsed.rejections.map(\.kind), Array(repeating: "invalid", count: 5))
        XCTAssertEqual(parsed.rejections[0].message, "field 'info.digits' should be a number, not a string")
        XCTAssertTrue(parsed.rejections[1].message.contains("invalid character"), parsed.rejections[1].message)
        XCTAssertEqual(parsed.rejections[2].message, "field 'info' is missing")
        XCTAssertTrue(parsed.rejections[3].message.contains("period"), parsed.rejections[3].message)
        XCTAssertEqual(parsed.rejections[4].message, "the entry should be an object, not a string")
    }

    func testExportReadsBackIdentically() throws {
        let items = try expected.map { ExportItem(account: account($0.issuer, $0.name, otp: $0.draft.otp, tags: $0.tags, note: $0.note),
                                                  secret: try Base32Secret($0.secret)) }
        let data = try AegisFormat.document(for: items)
        let parsed = try AegisFormat.parse(data, context: ImportContext())
        assertEntries(parsed, expected)
        XCTAssertTrue(parsed.rejections.isEmpty)
        XCTAssertEqual(AegisFormat.groupUUID("Work"), AegisFormat.groupUUID("Work"), "the same tag always gets the same group")
    }
}
