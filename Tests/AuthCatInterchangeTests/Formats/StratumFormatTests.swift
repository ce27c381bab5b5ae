import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

final class StratumFormatTests: XCTestCase {
    // MARK: Aegis v3.4.2's test files (password "test")

    private let password = ImportContext.answering("test")

    func testPlainBackup() throws {
        let parsed = try StratumFormat.parse(Fixture.data("stratum_plain.json"), context: ImportContext())
        assertEntries(parsed, ExpectedAccount.allAegisVectors)
    }

    func testEncryptedBackupsCurrentAndLegacy() throws {
        for name in ["stratum_encrypted.bin", "stratum_encrypted_legacy.bin"] {
            assertEntries(
                try StratumFormat.parse(Fixture.data(name), context: password), ExpectedAccount.allAegisVectors)
        }
    }

    func testWrongPasswordOrNone() throws {
        try assertWrongPasswordOrNone(
            .stratum, ["stratum_encrypted.bin", "stratum_encrypted_legacy.bin"], wrong: "Test")
    }

    func testDamagedEncryptedBackups() throws {
        let noPrompt = ImportContext.failingIfAsked()
        for name in ["stratum_encrypted.bin", "stratum_encrypted_legacy.bin"] {
            let data = try Fixture.data(name)
            // A legacy ciphertext that is not whole blocks is cut short too; a current one fails its tag.
            let cuts =
                [data.prefix(16), data.prefix(40), data.prefix(59)]
                + (name.contains("legacy") ? [data.dropLast(3)] : [])
            for cut in cuts {
                XCTAssertThrowsError(try StratumFormat.parse(Data(cut), context: noPrompt), "\(name) \(cut.count)") {
                    XCTAssertEqual(
                        $0 as? ImportError,
                        .malformed(.stratum, "it is an encrypted backup cut short (or damaged)"))
                }
            }
            var flipped = data
            flipped[data.count - 20] ^= 0x40
            XCTAssertThrowsError(try StratumFormat.parse(flipped, context: password), name) { error in
                XCTAssertEqual(error as? ImportError, .wrongPassword(.stratum), name)
            }
        }
    }

    // MARK: Built files: every kind, categories, the HTML and URI-list exports

    func testEveryKindCategoriesAndUnsupportedKinds() throws {
        let backup = """
            {"Authenticators": [
              {"Type": 2, "Issuer": "GitHub", "Username": "alice@example.com", "Secret": "JBSWY3DPEHPK3PXP", "Algorithm": 0, "Digits": 6, "Period": 30, "Counter": 0},
              {"Type": 2, "Issuer": "Ünïcødé Bank", "Username": "李雷 🐱", "Secret": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "Algorithm": 1, "Digits": 8, "Period": 60, "Counter": 0},
              {"Type": 2, "Issuer": "Example", "Username": "sha512", "Secret": "\(ExpectedAccount.sha512Secret)", "Algorithm": 2, "Digits": 8, "Period": 30},
              {"Type": 1, "Issuer": "HOTP Corp", "Username": "bob", "Secret": "MFRGGZDFMZTWQ2LK", "Algorithm": 0, "Digits": 6, "Period": 30, "Counter": 42},
              {"Type": 4, "Issuer": "Steam", "Username": "gamer", "Secret": "ONSWG4TFOQ", "Algorithm": 0, "Digits": 5, "Period": 30, "Counter": 0},
              {"Type": 2, "Issuer": "Nameless", "Username": null, "Secret": "JBSWY3DPEHPK3PXP", "Algorithm": 0, "Digits": 6, "Period": 30},
              {"Type": 3, "Issuer": "PfSense", "Username": "jimmy", "Secret": "e3152afee62599c8", "Pin": "1234", "Algorithm": 3, "Digits": 6, "Period": 10},
              {"Type": 5, "Issuer": "Yandex", "Username": "ivan", "Secret": "LA2V6KMCGYMWWVEW64RNP3JA3I", "Pin": "7586", "Algorithm": 1, "Digits": 8, "Period": 30},
              {"Type": 2, "Issuer": "Odd", "Username": "md5", "Secret": "JBSWY3DPEHPK3PXP", "Algorithm": 3}
            ],
            "Categories": [{"Id": "c1", "Name": "Work", "Ranking": 0}, {"Id": "c2", "Name": "Bank ✓", "Ranking": 1}],
            "AuthenticatorCategories": [
              {"CategoryId": "c1", "AuthenticatorSecret": "JBSWY3DPEHPK3PXP", "Ranking": 0},
              {"CategoryId": "c2", "AuthenticatorSecret": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "Ranking": 0},
              {"CategoryId": "c1", "AuthenticatorSecret": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "Ranking": 1},
              {"CategoryId": "gone", "AuthenticatorSecret": "ONSWG4TFOQ", "Ranking": 0}
            ],
            "CustomIcons": []}
            """
        let parsed = try StratumFormat.parse(Data(backup.utf8), context: ImportContext())
        var expected = ExpectedAccount.standard(tags: [["Work"], ["Bank ✓", "Work"]])
        // An account without a username is named by its issuer, as authcat names such accounts.
        expected.append(ExpectedAccount(issuer: "", name: "Nameless", secret: "JBSWY3DPEHPK3PXP", tags: ["Work"]))
        assertEntries(parsed, expected)
        XCTAssertEqual(parsed.rejections.map(\.label), ["PfSense:jimmy", "Yandex:ivan", "Odd:md5"])
        XCTAssertEqual(parsed.rejections.map(\.kind), ["unsupported", "unsupported", "unsupported"])
        XCTAssertTrue(parsed.rejections[0].message.contains("'mOTP'"), parsed.rejections[0].message)
        XCTAssertEqual(try FormatDetector.detect(Data(backup.utf8)), .stratum)
    }

    /// The HTML export as its description gives it: a table whose links are
    /// the authenticators' URIs, `&` written as `&amp;`.
    func testHTMLExport() throws {
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Authenticator Pro Backup</title>
            <style>td { padding: 4px }</style></head>
            <body><h1>Authenticator Pro</h1><table>
            <tr><th>Issuer</th><th>Username</th><th>Link</th></tr>
            <tr><td>GitHub</td><td>alice@example.com</td><td><a href="otpauth://totp/GitHub:alice%40example.com?secret=JBSWY3DPEHPK3PXP&amp;issuer=GitHub">otpauth://totp/GitHub:alice%40example.com?secret=JBSWY3DPEHPK3PXP&amp;issuer=GitHub</a></td></tr>
            <tr><td>Ünïcødé Bank</td><td>李雷 🐱</td><td><a HREF='otpauth://totp/%C3%9Cn%C3%AFc%C3%B8d%C3%A9%20Bank:%E6%9D%8E%E9%9B%B7%20%F0%9F%90%B1?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&#38;algorithm=SHA256&amp;digits=8&#x26;period=60'>link</a></td></tr>
            <tr><td>HOTP Corp</td><td>bob</td><td><a href="otpauth://hotp/HOTP%20Corp:bob?secret=MFRGGZDFMZTWQ2LK&amp;counter=42">link</a></td></tr>
            <tr><td>Steam</td><td>gamer</td><td><a href="otpauth://steam/Steam:gamer?secret=ONSWG4TFOQ&amp;issuer=Steam">link</a></td></tr>
            <tr><td>Broken</td><td>x</td><td><a href="otpauth://totp/Broken:x?secret=1&amp;issuer=Broken">link</a></td></tr>
            <tr><td colspan="3"><a href="https://stratumauth.com">stratumauth.com</a></td></tr>
            </table></body></html>
            """
        XCTAssertEqual(try FormatDetector.detect(Data(html.utf8)), .stratum)
        let parsed = try StratumFormat.parse(Data(html.utf8), context: ImportContext())
        let standard = ExpectedAccount.standard
        assertEntries(parsed, [standard[0], standard[1], standard[3], standard[4]])
        XCTAssertEqual(parsed.rejections.map(\.position.description), ["link 5"])
        XCTAssertEqual(parsed.rejections.map(\.label), ["Broken:x"])
        XCTAssertThrowsError(
            try StratumFormat.parse(Data("<html><body>no links</body></html>".utf8), context: ImportContext())
        ) { XCTAssertEqual($0 as? ImportError, .malformed(.stratum, "its HTML holds no otpauth:// link")) }
        XCTAssertThrowsError(try StratumFormat.parse(Data("hello".utf8), context: ImportContext()))
    }

    /// The URI-list export is plain otpauth lines, read by the otpauth format.
    func testURIListExportIsDetectedAsOTPAuth() throws {
        let list = """
            otpauth://totp/GitHub:alice%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=GitHub&algorithm=SHA1&digits=6&period=30
            otpauth://hotp/HOTP%20Corp:bob?secret=MFRGGZDFMZTWQ2LK&issuer=HOTP%20Corp&algorithm=SHA1&digits=6&counter=42

            """
        XCTAssertEqual(try FormatDetector.detect(Data(list.utf8)), .otpauth)
        let standard = ExpectedAccount.standard
        assertEntries(try OTPAuthFormat.parse(Data(list.utf8), context: ImportContext()), [standard[0], standard[3]])
    }

    func testMalformedBackups() {
        for text in [#"{"Authenticators": 3}"#, #"{"Authenticators": [], "Categories": 1}"#, "[1, 2"] {
            XCTAssertThrowsError(try StratumFormat.parse(Data(text.utf8), context: ImportContext()), text) { error in
                guard case .malformed(.stratum, _)? = error as? ImportError else { return XCTFail("\(text): \(error)") }
            }
        }
    }
}
