import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

/// totp_authenticator.bin (password `Testtest1`) and
/// totp_authenticator_internal.xml are Aegis's fixtures: Aegis's TOTP
/// accounts, names in lowercase as the app keeps them, all SHA-1.
final class TOTPAuthenticatorFormatTests: XCTestCase {
    private static let expected = [
        ExpectedAccount(issuer: "Deno", name: "mason", secret: "4SJHB4GSD43FZBAI7C2HLRJGPQ"),
        ExpectedAccount(issuer: "SPDX", name: "james", digits: 7, period: 20, secret: "5OM4WOOGPLQEF6UGN3CPEOOLWU"),
        ExpectedAccount(issuer: "Airbnb", name: "elijah", digits: 8, period: 50, secret: "7ELGJSGXNCCTV3O6LKJWYFV2RA"),
    ]

    /// A context that counts how often the password was asked for.
    private final class Asked: @unchecked Sendable {
        var count = 0
    }

    private func context(_ password: String, asked: Asked = Asked()) -> ImportContext {
        ImportContext(password: {
            asked.count += 1
            return SecretBytes(utf8: password)
        })
    }

    /// A backup of `list` as the app writes it, under `password`.
    private func backup(_ list: String, password: String = TOTPAuthenticatorFormat.defaultPassword) throws -> Data {
        let object = try JSONSerialization.data(withJSONObject: [list: "1608293023"])
        let sealed = try AESCBC.seal(
            object, key: SHA256.hash(SecretBytes(utf8: password)), iv: Data(count: AESCBC.blockSize))
        return Data(sealed.base64EncodedString().utf8)
    }

    func testThePreferencesOfARootedPhone() throws {
        let parsed = try TOTPAuthenticatorFormat.parse(
            Fixture.data("totp_authenticator_internal.xml"), context: ImportContext())
        assertEntries(parsed, Self.expected)
        XCTAssertEqual(parsed.entries.map(\.position.description), ["entry 1", "entry 2", "entry 3"])
    }

    func testAnEncryptedBackupAsksForThePasswordOnce() throws {
        let asked = Asked()
        let parsed = try TOTPAuthenticatorFormat.parse(
            Fixture.data("totp_authenticator.bin"), context: context("Testtest1", asked: asked))
        assertEntries(parsed, Self.expected)
        XCTAssertEqual(asked.count, 1)
    }

    func testAWrongPasswordOpensNothing() throws {
        XCTAssertThrowsError(
            try TOTPAuthenticatorFormat.parse(Fixture.data("totp_authenticator.bin"), context: context("testtest1"))
        ) { XCTAssertEqual($0 as? ImportError, .wrongPassword(.totpAuthenticator)) }
    }

    /// A backup without a password of the user's is opened with the app's own, without asking.
    func testABackupUnderTheAppsOwnPasswordNeedsNone() throws {
        let list = #"[{"issuer":"GitHub","name":"alice","key":"JBSWY3DPEHPK3PXP","base":32}]"#
        let asked = Asked()
        let parsed = try TOTPAuthenticatorFormat.parse(try backup(list), context: context("unused", asked: asked))
        assertEntries(parsed, [ExpectedAccount(issuer: "GitHub", name: "alice", secret: "JBSWY3DPEHPK3PXP")])
        XCTAssertEqual(asked.count, 0)
        // Line-wrapped base64 (Android's default) reads the same.
        let wrapped = String(decoding: try backup(list, password: "pw"), as: UTF8.self).enumerated().map {
            $0.offset > 0 && $0.offset % 76 == 0 ? "\n\($0.element)" : "\($0.element)"
        }.joined()
        XCTAssertEqual(
            try TOTPAuthenticatorFormat.parse(Data(wrapped.utf8), context: context("pw")).entries.count, 1)
    }

    func testEveryBaseAndParameterSpelling() throws {
        let list = """
            [{"issuer":"Hex","name":"h","key":"48656c6c6f21deadbeef","base":16,"digits":6,"period":30},
             {"issuer":"Base64","name":"b","key":"SGVsbG8h3q2+7w==","base":64,"digits":"8","period":"60"},
             {"issuer":"Ünïcødé Bank","name":"李雷 🐱","key":"JBSW Y3DP EHPK 3PXP","base":32}]
            """
        let parsed = try TOTPAuthenticatorFormat.parse(try backup(list), context: ImportContext())
        assertEntries(
            parsed,
            [
                ExpectedAccount(issuer: "Hex", name: "h", secret: "JBSWY3DPEHPK3PXP"),
                ExpectedAccount(issuer: "Base64", name: "b", digits: 8, period: 60, secret: "JBSWY3DPEHPK3PXP"),
                ExpectedAccount(issuer: "Ünïcødé Bank", name: "李雷 🐱", secret: "JBSWY3DPEHPK3PXP"),
            ])
    }

    func testBadAccountsAreRejectedByPositionWithoutTheirSecrets() throws {
        let list = """
            [{"issuer":"A","name":"a","key":"JBSWY3DPEHPK3PXP","base":10},
             {"issuer":"B","name":"b","key":"JBSWY3DPEHPK3PXP","base":16},
             {"issuer":"C","name":"c","key":"JBSWY3DPEHPK3PXP","base":32,"digits":"six"},
             {"issuer":"D","name":"d","key":"JBSWY3DPEHPK3PXP=!","base":64},
             {"issuer":"E","name":"e","base":32},
             "JBSWY3DPEHPK3PXP"]
            """
        let parsed = try TOTPAuthenticatorFormat.parse(try backup(list), context: ImportContext())
        XCTAssertEqual(parsed.entries.count, 0)
        XCTAssertEqual(
            parsed.rejections.map(\.description),
            [
                "entry 1 (A:a): its key is in base 10; the app writes base 16, 32 or 64",
                parsed.rejections[1].description,
                "entry 3 (C:c): field 'digits' is not a number",
                "entry 4 (D:d): field 'key' is not base64",
                "entry 5 (E:e): field 'key' is missing",
                "entry 6: the entry should be an object, not a string",
            ])
        XCTAssertTrue(parsed.rejections[1].description.hasPrefix("entry 2 (B:b): "), parsed.rejections[1].description)
        assertNoRejectionQuotes("JBSWY3DP", in: parsed)
    }

    func testDamagedFiles() throws {
        let notBackup = "it is neither the app's backup (base64) nor its preferences (XML)"
        let cases: [(Data, String)] = [
            (Data("not base64!".utf8), notBackup),
            (Data(Data(count: 15).base64EncodedString().utf8), notBackup),
            (
                Data("<map><int name=\"RATE_US_COUNTER\" value=\"1\"/></map>".utf8),
                "it holds no TOTP Authenticator account list (STATIC_TOTP_CODES_LIST)"
            ),
            (
                Data("<map><string name=\"STATIC_TOTP_CODES_LIST\">{}</string></map>".utf8),
                "its account list is not a JSON list"
            ),
            (
                Data("<map><string name=\"STATIC_TOTP_CODES_LIST\">[</string></map>".utf8),
                "it is not valid JSON (truncated or damaged?)"
            ),
            (try backup(#"{"no":"list"}"#), "the backup holds no account list"),
        ]
        for (data, why) in cases {
            XCTAssertThrowsError(try TOTPAuthenticatorFormat.parse(data, context: ImportContext()), why) {
                XCTAssertEqual($0 as? ImportError, .malformed(.totpAuthenticator, why))
            }
        }
        // A truncated backup is whole blocks of the wrong bytes: no password opens it.
        let file = try Fixture.data("totp_authenticator.bin")
        let truncated = Data(Data(base64Encoded: file)!.prefix(64).base64EncodedString().utf8)
        XCTAssertThrowsError(try TOTPAuthenticatorFormat.parse(truncated, context: context("Testtest1"))) {
            XCTAssertEqual($0 as? ImportError, .wrongPassword(.totpAuthenticator))
        }
    }
}
