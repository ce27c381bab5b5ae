import AuthCatCore
import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

final class AegisFormatTests: XCTestCase {
    private let expected = ExpectedAccount.standard(
        tags: [["Work"], ["Bank ✓", "Work"]], notes: ["recovery codes in the safe"])

    func testPlainVaultWithGroupsNotesAndAllKinds() throws {
        var parsed = try AegisFormat.parse(Fixture.data("aegis_plain.json"), context: ImportContext())
        XCTAssertTrue(parsed.rejections.isEmpty)
        let yandex = try XCTUnwrap(parsed.entries.popLast())
        assertEntries(parsed, expected)
        XCTAssertEqual(yandex.position, .entry(6))
        XCTAssertEqual(yandex.label, "Yandex:ivan")
        XCTAssertEqual(yandex.draft.otp, OTPParameters(kind: .yandex))
        XCTAssertEqual(yandex.draft.secret, SecretBytes(utf8: "abcdefghijklmnop"))
        XCTAssertEqual(yandex.draft.pin, SecretBytes(utf8: "1234"))
    }

    /// Aegis's JSON for both kinds: `info` has `secret` (Base32), `algo`,
    /// `digits`, `period` and `pin`; the codes are Aegis's own test vectors.
    func testYandexAndMOTPEntriesWithTheirPIN() throws {
        let text = """
            {"version": 1, "header": {"slots": null, "params": null}, "db": {"version": 3, "groups": [], "entries": [
              {"type": "yandex", "name": "ivan", "issuer": "Yandex",
               "info": {"secret": "LA2V6KMCGYMWWVEW64RNP3JA3IAAAAAAHTSG4HRZPI", "algo": "SHA256", "digits": 8, "period": 30, "pin": "7586"}},
              {"type": "motp", "name": "jimmy", "issuer": "PfSense",
               "info": {"secret": "4MKSV7XGEWM4Q", "algo": "MD5", "digits": 6, "period": 10, "pin": "1234"}},
              {"type": "motp", "name": "nopin", "issuer": "PfSense", "info": {"secret": "4MKSV7XGEWM4Q", "algo": "MD5", "digits": 6, "period": 10}},
              {"type": "yandex", "name": "badsum", "issuer": "Yandex",
               "info": {"secret": "AA2V6KMCGYMWWVEW64RNP3JA3IAAAAAAHTSG4HRZPI", "algo": "SHA256", "digits": 8, "period": 30, "pin": "7586"}},
              {"type": "totp", "name": "md5", "issuer": "Old", "info": {"secret": "JBSWY3DPEHPK3PXP", "algo": "MD5", "digits": 6, "period": 30}}
            ]}}
            """
        let parsed = try AegisFormat.parse(Data(text.utf8), context: ImportContext())
        XCTAssertEqual(parsed.entries.map(\.label), ["Yandex:ivan", "PfSense:jimmy", "Old:md5"])
        XCTAssertEqual(parsed.rejections.map(\.label), ["PfSense:nopin", "Yandex:badsum"])
        XCTAssertTrue(parsed.rejections[0].message.contains("pin"), parsed.rejections[0].message)
        XCTAssertTrue(parsed.rejections[1].message.contains("checksum"), parsed.rejections[1].message)
        XCTAssertEqual(parsed.entries[2].draft.otp.algorithm, .sha1, "Aegis reads MD5 on other kinds as SHA1")
        let yandex = parsed.entries[0].draft
        XCTAssertEqual(yandex.secret.count, 16)
        XCTAssertEqual(
            try OTPGenerator.code(
                secret: yandex.secret, parameters: yandex.otp, at: Date(timeIntervalSince1970: 1_581_064_020),
                pin: yandex.pin
            ).value, "oactmacq")
        let motp = parsed.entries[1].draft
        XCTAssertEqual(Base16.encode(motp.secret), "e3152afee62599c8")
        XCTAssertEqual(
            try OTPGenerator.code(
                secret: motp.secret, parameters: motp.otp, at: Date(timeIntervalSince1970: 165_892_298),
                pin: motp.pin
            ).value, "e7d8b6")
    }

    func testYandexAndMOTPExportAsAegisWritesThem() throws {
        let items = [
            ExportItem(
                account: account("Yandex", "ivan", otp: OTPParameters(kind: .yandex)),
                secret: try Base32.decode("LA2V6KMCGYMWWVEW64RNP3JA3I"), pin: SecretBytes(utf8: "7586")),
            ExportItem(
                account: account("PfSense", "jimmy", otp: OTPParameters(kind: .motp)),
                secret: try Base16.decode("e3152afee62599c8"), pin: SecretBytes(utf8: "1234")),
        ]
        let data = try AegisFormat.document(for: items)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let entries = try XCTUnwrap((document["db"] as? [String: Any])?["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.map { $0["type"] as? String }, ["yandex", "motp"])
        let infos = entries.compactMap { $0["info"] as? [String: Any] }
        XCTAssertEqual(infos[0]["pin"] as? String, "7586")
        XCTAssertEqual(infos[0]["algo"] as? String, "SHA256")
        XCTAssertEqual(infos[0]["digits"] as? Int, 8)
        XCTAssertEqual(infos[0]["period"] as? Int, 30)
        XCTAssertEqual(infos[1]["algo"] as? String, "MD5")
        XCTAssertEqual(infos[1]["period"] as? Int, 10)
        XCTAssertEqual(infos[1]["secret"] as? String, "4MKSV7XGEWM4Q")
        let parsed = try AegisFormat.parse(data, context: ImportContext())
        XCTAssertEqual(parsed.entries.map(\.draft.pin), items.map(\.pin))
        XCTAssertEqual(parsed.entries.map(\.draft.secret), items.map(\.secret))
    }

    func testNonCanonicalSecretLengthsAreImportedWithAWarning() throws {
        let text = """
            {"version": 1, "header": {"slots": null, "params": null}, "db": {"version": 3, "groups": [], "entries": [
              {"type": "totp", "name": "eleven", "issuer": "2FAS", "info": {"secret": "JBSWY3DPEHP", "algo": "SHA1", "digits": 6, "period": 30}},
              {"type": "totp", "name": "one", "issuer": "X", "info": {"secret": "J", "algo": "SHA1", "digits": 6, "period": 30}}
            ]}}
            """
        let parsed = try AegisFormat.parse(Data(text.utf8), context: ImportContext())
        XCTAssertEqual(parsed.entries.map(\.label), ["2FAS:eleven"])
        XCTAssertEqual(parsed.entries[0].draft.secret, SecretBytes(utf8: "Hello!"))
        XCTAssertEqual(parsed.warnings.count, 1)
        XCTAssertTrue(
            parsed.warnings[0].hasPrefix("entry 1 (2FAS:eleven): the secret has 11 Base32 characters"),
            parsed.warnings[0])
        XCTAssertEqual(parsed.rejections.map(\.label), ["X:one"])
    }

    func testEncryptedVaultWithThePassword() throws {
        let context = ImportContext(password: { SecretBytes(utf8: "test-password") })
        var parsed = try AegisFormat.parse(Fixture.data("aegis_encrypted.json"), context: context)
        XCTAssertEqual(parsed.entries.popLast()?.draft.otp.kind, .yandex)
        assertEntries(parsed, expected)
    }

    func testEncryptedVaultWithAWrongPasswordOrNone() throws {
        let data = try Fixture.data("aegis_encrypted.json")
        XCTAssertThrowsError(
            try AegisFormat.parse(data, context: ImportContext(password: { SecretBytes(utf8: "wrong") }))
        ) {
            XCTAssertEqual($0 as? ImportError, .wrongPassword(.aegis))
        }
        XCTAssertThrowsError(try AegisFormat.parse(data, context: ImportContext())) {
            XCTAssertEqual($0 as? ImportError, .passwordRequired)
        }
    }

    func testTamperedCiphertextIsRefused() throws {
        var document =
            try JSONSerialization.jsonObject(with: Fixture.data("aegis_encrypted.json")) as? [String: Any] ?? [:]
        var db = Data(base64Encoded: document["db"] as? String ?? "") ?? Data()
        db[db.startIndex] ^= 1
        document["db"] = db.base64EncodedString()
        let data = try JSONSerialization.data(withJSONObject: document)
        XCTAssertThrowsError(
            try AegisFormat.parse(data, context: ImportContext(password: { SecretBytes(utf8: "test-password") }))
        ) {
            XCTAssertEqual($0 as? ImportError, .wrongPassword(.aegis))
        }
    }

    func testCostlySlotsAndTooManySlotsAreRefusedBeforeThePasswordIsAsked() throws {
        let document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Fixture.data("aegis_encrypted.json")) as? [String: Any])
        var header = try XCTUnwrap(document["header"] as? [String: Any])
        let slots = try XCTUnwrap(header["slots"] as? [[String: Any]])
        let context = ImportContext(password: {
            XCTFail("the password was asked for")
            return SecretBytes(utf8: "test-password")
        })
        func parse(_ slots: [[String: Any]]) throws -> ParsedImport {
            header["slots"] = slots
            let data = try JSONSerialization.data(withJSONObject: document.merging(["header": header]) { $1 })
            return try AegisFormat.parse(data, context: context)
        }
        // A costly slot after the good one is still refused first.
        var hostile = try XCTUnwrap(slots.first { $0["type"] as? Int == 1 })
        (hostile["n"], hostile["r"], hostile["p"]) = (2, 1, 1 << 24)
        XCTAssertThrowsError(try parse(slots + [hostile])) {
            XCTAssertEqual(
                "\($0)",
                "the Aegis file asks for 2.0 GiB of memory for its key derivation; authcat allows at most 1 GiB")
        }
        XCTAssertThrowsError(try parse(Array(repeating: slots[0], count: AegisFormat.maximumSlots + 1))) {
            XCTAssertEqual(
                "\($0)", "this is not a valid Aegis vault: its header lists 17 key slots; authcat reads at most 16")
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
        let items = try expected.map {
            ExportItem(
                account: account($0.issuer, $0.name, otp: $0.draft.otp, tags: $0.tags, note: $0.note),
                secret: try Base32Secret($0.secret))
        }
        let data = try AegisFormat.document(for: items)
        let parsed = try AegisFormat.parse(data, context: ImportContext())
        assertEntries(parsed, expected)
        XCTAssertTrue(parsed.rejections.isEmpty)
        XCTAssertEqual(
            AegisFormat.groupUUID("Work"), AegisFormat.groupUUID("Work"), "the same tag always gets the same group")
    }
}
