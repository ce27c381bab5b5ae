import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

final class BattleNetFormatTests: XCTestCase {
    func testMaskedSecretAndSerial() throws {
        let parsed = try BattleNetFormat.parse(Fixture.data("battle_net_authenticator.xml"), context: ImportContext())
        assertEntries(
            parsed,
            [
                ExpectedAccount(
                    issuer: "Battle.net", name: "US-2211-2050-3346", digits: 8,
                    secret: "BMGRXPGFARQQF4GMT25JATL2VYLAHDBI")
            ])
    }

    func testDamagedFiles() throws {
        let noSecret = "<map><string name=\"\(BattleNetFormat.serialName)\">00</string></map>"
        XCTAssertThrowsError(try BattleNetFormat.parse(Data(noSecret.utf8), context: ImportContext())) {
            XCTAssertEqual($0 as? ImportError, .malformed(.battleNet, "it has no authenticator secret"))
        }
        let tooLong =
            "<map><string name=\"\(BattleNetFormat.secretName)\">\(String(repeating: "00", count: 58))</string></map>"
        let parsed = try BattleNetFormat.parse(Data(tooLong.utf8), context: ImportContext())
        XCTAssertEqual(parsed.rejections.map(\.message), ["its masked secret is not hex of the mask's length"])
    }
}

final class DuoFormatTests: XCTestCase {
    func testTOTPAndHOTPAccounts() throws {
        let parsed = try DuoFormat.parse(Fixture.data("duo.json"), context: ImportContext())
        var issuu = ExpectedAccount.issuu
        issuu.issuer = ""
        issuu.counter = 3
        var deno = ExpectedAccount.deno
        deno.issuer = ""
        assertEntries(parsed, [deno, issuu])
    }

    func testDamagedAccounts() throws {
        let json =
            #"[{"name":"a","otpGenerator":{}},{"name":"b","otpGenerator":{"otpSecret":"ONSWG4TFOQ","counter":-1}},3]"#
        let parsed = try DuoFormat.parse(Data(json.utf8), context: ImportContext())
        XCTAssertEqual(
            parsed.rejections.map(\.message),
            [
                "field 'otpGenerator.otpSecret' is missing", "field 'otpGenerator.counter' must not be negative",
                "the account should be an object",
            ])
        XCTAssertThrowsError(try DuoFormat.parse(Data("{}".utf8), context: ImportContext()))
    }
}

final class ProtonAuthenticatorFormatTests: XCTestCase {
    func testExport() throws {
        let parsed = try ProtonAuthenticatorFormat.parse(
            Fixture.data("proton_authenticator.json"), context: ImportContext())
        assertEntries(parsed, [.deno, .spdx, .airbnb])
    }

    /// Ente Auth's fixtures: the app's export of four accounts, plain and
    /// with the password 1231246; issuers only in the URI's `issuer`, a label
    /// that starts with a colon.
    private let enteAccounts = [
        ExpectedAccount(
            issuer: ".env", name: "example@ente.io",
            secret: "MI4GCOJSGIZTKLJSGMZWKLJUGEZDQLJYG5STILJSMUYDIYTCMQ3TSOJRGI"),
        ExpectedAccount(issuer: "/e/", name: "cool@ente.com", secret: "554VBDOGJRLDG2JV"),
        ExpectedAccount(issuer: "ente", name: "simple@ente.sh", secret: "PIBTGMBYQYVSLN5PVZYQUTKYHOBRYYT7"),
        ExpectedAccount(issuer: "reddit", name: "r@ente.com", secret: "J4YFC3TZKVYWCVCNIVBWIV2GHFAXUNDF"),
    ]

    func testPlainAndEncryptedExportsOfTheSameAccounts() throws {
        let plain = try ProtonAuthenticatorFormat.parse(
            Fixture.data("proton_authenticator_plain.json"), context: .failingIfAsked())
        assertEntries(plain, enteAccounts)
        let encrypted = try ProtonAuthenticatorFormat.parse(
            Fixture.data("proton_authenticator_encrypted.json"), context: .answering("1231246"))
        assertEntries(encrypted, enteAccounts)
        for name in ["proton_authenticator_plain.json", "proton_authenticator_encrypted.json"] {
            XCTAssertEqual(try FormatDetector.detect(Fixture.data(name)), .protonAuthenticator, name)
        }
        try assertWrongPasswordOrNone(.protonAuthenticator, ["proton_authenticator_encrypted.json"], wrong: "1231247")
    }

    func testDamagedEncryptedExportsAreRefusedBeforeThePassword() throws {
        let salt = Data(count: ProtonAuthenticatorFormat.saltSize).base64EncodedString()
        let cases: [(String, String)] = [
            (#"{"version":1,"salt":"AAAA","content":"\#(salt)"}"#, "'salt' is not 16 bytes in base64"),
            (
                #"{"version":1,"salt":"\#(salt)","content":"not base64"}"#,
                "'content' is too short for a nonce and a tag in base64"
            ),
            (
                #"{"version":1,"salt":"\#(salt)","content":"\#(salt)"}"#,
                "'content' is too short for a nonce and a tag in base64"
            ),
        ]
        for (json, why) in cases {
            XCTAssertThrowsError(try ProtonAuthenticatorFormat.parse(Data(json.utf8), context: .failingIfAsked()), json)
            {
                XCTAssertEqual($0 as? ImportError, .malformed(.protonAuthenticator, why))
            }
        }
    }

    func testNotesHOTPSteamAndDamagedEntries() throws {
        let json = """
            {"version":1,"entries":[
             {"id":"1","content":{"uri":"otpauth://hotp/Ünïcødé:李雷?secret=MFRGGZDFMZTWQ2LK&counter=42","entry_type":"Hotp","name":"李雷"},"note":"a note"},
             {"id":"2","content":{"uri":"otpauth://steam/Steam:gamer?secret=ONSWG4TFOQ","entry_type":"Steam","name":"gamer"},"note":null},
             {"id":"3","content":{"uri":"otpauth://totp/x?secret=1","entry_type":"Totp","name":"x"}},
             {"id":"4"},
             {"id":"5","content":{"uri":"steam://MFRGGZDFMZTWQ2LK","entry_type":"Steam","name":"player"},"note":"desk"}]}
            """
        let parsed = try ProtonAuthenticatorFormat.parse(Data(json.utf8), context: ImportContext())
        assertEntries(
            parsed,
            [
                ExpectedAccount(
                    issuer: "Ünïcødé", name: "李雷", kind: .hotp, counter: 42, secret: "MFRGGZDFMZTWQ2LK", note: "a note"),
                ExpectedAccount(issuer: "Steam", name: "gamer", kind: .steam, digits: 5, secret: "ONSWG4TFOQ"),
                ExpectedAccount(
                    issuer: "Steam", name: "player", kind: .steam, digits: 5, secret: "MFRGGZDFMZTWQ2LK", note: "desk"),
            ])
        XCTAssertEqual(parsed.rejections.map(\.position.description), ["entry 3", "entry 4"])
        XCTAssertThrowsError(
            try ProtonAuthenticatorFormat.parse(Data(#"{"entries":3}"#.utf8), context: ImportContext()))
    }
}
