import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

/// proton_pass.zip is made by Fixtures/make_zip_exports.py from Proton Pass's
/// export layout: the standard accounts in two vaults, as bare secrets and
/// otpauth URIs, a login with a second code in an extra field, a note, an
/// alias, an item in the trash, and a login of an export before 1.18.
final class ProtonPassFormatTests: XCTestCase {
    private func parse(_ data: Data) throws -> ParsedImport {
        try ProtonPassFormat.parse(data, context: .failingIfAsked())
    }

    /// data.json holding `items` in one vault.
    private func export(_ items: [String]) -> Data {
        Data(
            #"{"version": "1.21.2", "userId": "u", "encrypted": false, "vaults": {"V": {"name": "Home", "items": ["#
                .utf8)
            + Data(items.joined(separator: ",").utf8) + Data("]}}}".utf8)
    }

    private func login(_ code: String, name: String = "Site") -> String {
        #"{"state": 1, "data": {"type": "login", "metadata": {"name": "\#(name)", "note": ""}, "#
            + #""content": {"itemUsername": "u", "totpUri": "\#(code)"}, "extraFields": []}}"#
    }

    func testTheExport() throws {
        let parsed = try parse(Fixture.data("proton_pass.zip"))
        let personal = ["Personal"]
        var bank = ExpectedAccount.standard[1]
        bank.tags = personal
        var example = ExpectedAccount.standard[2]
        example.tags = ["Work"]
        var hotp = ExpectedAccount.standard[3]
        hotp.tags = ["Work"]
        assertEntries(
            parsed,
            [
                ExpectedAccount(
                    issuer: "GitHub", name: "alice@example.com", secret: "JBSWY3DPEHPK3PXP", tags: personal,
                    note: "recovery codes in the safe"),
                bank,
                ExpectedAccount(issuer: "Twin", name: "carol", secret: "MFRGGZDFMZTWQ2LK", tags: personal),
                ExpectedAccount(issuer: "Twin", name: "carol (backup)", secret: "GEZDGNBVGY3TQOJQ", tags: personal),
                example, hotp,
            ])
        XCTAssertEqual(
            parsed.entries.map(\.position.description),
            [
                "vault 'Personal', item 1", "vault 'Personal', item 2", "vault 'Personal', item 3, code 1",
                "vault 'Personal', item 3, code 2", "vault 'Work', item 1", "vault 'Work', item 2",
            ])
        XCTAssertEqual(
            parsed.rejections.map(\.description), ["vault 'Personal', item 5 (Gone): it is in Proton Pass's trash"])
        XCTAssertEqual(parsed.rejections.map(\.kind), ["unsupported"])
        XCTAssertEqual(parsed.warnings, ["2 items have no one-time password and were left out"])
    }

    func testDataJSONAloneReadsAsTheArchive() throws {
        try assertFileAloneReadsAsItsArchive("proton_pass.zip", path: ProtonPassFormat.dataPath, .protonPass)
    }

    func testBadCodesAreRejectedByPositionWithoutTheirSecrets() throws {
        let parsed = try parse(
            export([
                login("JBSWY3DP0HPK3PXP"), login("otpauth://totp/A:a?secret=JBSWY3DPEHPK3PXP&period=0"),
                login("otpauth://totp/B?secret=JBSWY3DPEHPK3PXP", name: "B otpauth://totp/B?secret=JBSWY3DPEHPK3PXP"),
                #"{"state": "x", "data": {"metadata": {"name": "C"}, "content": {"totpUri": "JBSWY3DPEHPK3PXP"}}}"#,
                #"{"data": {"metadata": {"name": "D"}, "extraFields": [{"type": "totp", "data": {"totpUri": ""}}]}}"#,
            ]))
        XCTAssertEqual(parsed.entries.count, 1, "the URI with a name that quotes it")
        XCTAssertEqual(
            parsed.rejections.map(\.position.description),
            ["vault 'Home', item 1", "vault 'Home', item 2", "vault 'Home', item 4", "vault 'Home', item 5"])
        XCTAssertEqual(parsed.rejections[3].description, "vault 'Home', item 5 (D): its one-time password is empty")
        for rejection in parsed.rejections {
            XCTAssertFalse(rejection.description.contains("JBSWY3DP"), rejection.description)
        }
    }

    func testEncryptedDamagedAndHostileFiles() throws {
        XCTAssertThrowsError(try parse(Data(#"{"userId": "u", "encrypted": true, "vaults": {}}"#.utf8))) {
            guard case .encryptedUnsupported(.protonPass, _)? = $0 as? ImportError else {
                return XCTFail("\($0)")
            }
        }
        let cases: [(Data, String)] = [
            (EmptyFilesZIP.archive(["Proton Pass/other.json"]), "its archive has no Proton Pass/data.json"),
            (try Fixture.data("proton_pass.zip").dropLast(), "its ZIP archive is damaged or truncated"),
            (Data(#"{"vaults": []}"#.utf8), "it has no 'vaults' object"),
            (Data("[".utf8), "the file is not a JSON object"),
        ]
        for (data, why) in cases {
            XCTAssertThrowsError(try parse(data), why) {
                XCTAssertEqual("\($0)", "this is not a valid Proton Pass export: \(why)")
            }
        }
        let odd = Data(#"{"vaults": {"a": 1, "b": {"items": [null, {"data": 2}, {"data": {"content": []}}]}}}"#.utf8)
        XCTAssertEqual(try parse(odd).warnings, ["3 items have no one-time password and were left out"])
    }

    /// The encrypted export is an OpenPGP message, opened by the command
    /// line's gpg; the parser alone says how to open it.
    func testTheSealedExportIsRecognisedAndLeftToGPG() throws {
        // The start of `gpg --symmetric`'s output: a session key packet, AES-256, iterated S2K.
        let binary = Data([0x8c, 0x0d, 0x04, 0x09, 0x03, 0x02, 0x49, 0xe2, 0x30, 0x94]) + Data(count: 64)
        let armored = Data("-----BEGIN PGP MESSAGE-----\n\njA0ECQMC\n".utf8)
        for data in [binary, armored] {
            XCTAssertTrue(ProtonPassFormat.isSealed(data))
            XCTAssertEqual(try FormatDetector.detect(data), .protonPass)
            XCTAssertThrowsError(try parse(data)) {
                guard case .encryptedUnsupported(.protonPass, let hint)? = $0 as? ImportError else {
                    return XCTFail("\($0)")
                }
                XCTAssertTrue(hint.contains("gpg --decrypt"), hint)
            }
        }
        // Another packet first, or a version no session key packet has, is not a sealed export.
        for head: [UInt8] in [[0x8c, 0x0d, 0x07, 0x09], [0x85, 0x0d, 0x04, 0x09], [0xc3, 0x01, 0x04, 0x09], [0x8c]] {
            XCTAssertFalse(ProtonPassFormat.isSealed(Data(head)), "\(head)")
        }
        XCTAssertFalse(ProtonPassFormat.isSealed(try Fixture.data("andotp_encrypted.bin")))
    }
}
