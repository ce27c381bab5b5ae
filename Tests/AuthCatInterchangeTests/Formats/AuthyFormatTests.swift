import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

final class AuthyFormatTests: XCTestCase {
    /// Authy keeps neither algorithm nor period: Aegis's accounts come back as SHA1, 30 s.
    private let expected = [ExpectedAccount.deno, .spdx, .airbnb].map { vector -> ExpectedAccount in
        var account = vector
        account.algorithm = .sha1
        account.period = 30
        return account
    }

    private func context(_ password: String) -> ImportContext {
        ImportContext(password: { SecretBytes(utf8: password) })
    }

    func testPlainTokens() throws {
        let parsed = try AuthyFormat.parse(Fixture.data("authy_plain.xml"), context: ImportContext())
        assertEntries(parsed, expected)
        XCTAssertTrue(parsed.rejections.isEmpty, "\(parsed.rejections)")
    }

    func testEncryptedTokensAndAWrongPassword() throws {
        let parsed = try AuthyFormat.parse(Fixture.data("authy_encrypted.xml"), context: context("testtest"))
        assertEntries(parsed, expected)
        XCTAssertThrowsError(try AuthyFormat.parse(Fixture.data("authy_encrypted.xml"), context: context("testtesT"))) {
            XCTAssertEqual($0 as? ImportError, .wrongPassword(.authy))
        }
    }

    func testNamesSeedsAndBuiltEncryption() throws {
        let salt = "saltsaltsalt"
        let key = try PBKDF2.deriveKey(
            password: SecretBytes(utf8: "pw"), salt: Data(salt.utf8), iterations: 1000, hash: .sha1)
        let sealed = try AESCBC.seal(Data("JBSWY3DPEHPK3PXP".utf8), key: key, iv: Data(count: 16)).base64EncodedString()
        let tokens = """
            [{"name":"GitHub - alice","digits":6,"encryptedSecret":"\(sealed)","salt":"\(salt)","accountType":"github"},
             {"name":"Ünïcødé: 李雷","originalName":"Ünïcødé:李雷","digits":8,"decryptedSecret":"MFRGGZDFMZTWQ2LK"},
             {"name":"bob","accountType":"gitlab","digits":6,"decryptedSecret":"ONSWG4TFOQ"},
             {"name":"Twitch","digits":7,"secretSeed":"00112233445566778899aabbccddeeff"},
             {"name":"x","digits":6},
             {"name":"y","digits":11,"decryptedSecret":"ONSWG4TFOQ"}]
            """
        let parsed = try AuthyFormat.parse(preferences(tokens), context: context("pw"))
        assertEntries(
            parsed,
            [
                ExpectedAccount(issuer: "GitHub", name: "alice", secret: "JBSWY3DPEHPK3PXP"),
                ExpectedAccount(issuer: "Ünïcødé", name: "李雷", digits: 8, secret: "MFRGGZDFMZTWQ2LK"),
                ExpectedAccount(issuer: "Gitlab", name: "bob", secret: "ONSWG4TFOQ"),
                ExpectedAccount(
                    issuer: "", name: "Twitch", digits: 7, period: 10, secret: "AAISEM2EKVTHPCEZVK54ZXPO74"),
            ])
        XCTAssertEqual(parsed.rejections.map(\.position.description), ["entry 5", "entry 6"])
        XCTAssertEqual(parsed.rejections[0].message, "it has no secret")
    }

    func testHostileAndDamagedFiles() throws {
        let token = #"{"name":"a","digits":6,"encryptedSecret":"AAAAAAAAAAAAAAAAAAAAAA==","salt":"s"}"#
        let many = "[" + Array(repeating: token, count: 2001).joined(separator: ",") + "]"
        let asked = ImportContext(password: {
            XCTFail("asked for the password")
            return SecretBytes(utf8: "pw")
        })
        XCTAssertThrowsError(try AuthyFormat.parse(preferences(many), context: asked)) {
            XCTAssertEqual(
                $0 as? ImportError,
                .malformed(.authy, "it holds more than 2000 encrypted tokens, the most authcat reads"))
        }
        XCTAssertThrowsError(try AuthyFormat.parse(preferences("[{"), context: ImportContext())) {
            XCTAssertEqual(
                $0 as? ImportError,
                .malformed(.authy, "its 'com.authy.storage.tokens.authenticator.key' is not a JSON list"))
        }
        let file = try Fixture.data("authy_encrypted.xml")
        XCTAssertThrowsError(try AuthyFormat.parse(file.prefix(file.count / 2), context: context("testtest"))) {
            XCTAssertEqual(
                $0 as? ImportError, .malformed(.authy, "it is not well-formed XML (truncated or damaged?)"))
        }
        XCTAssertThrowsError(try AuthyFormat.parse(Data("<map></map>".utf8), context: ImportContext())) {
            XCTAssertEqual($0 as? ImportError, .malformed(.authy, "it holds no Authy token list"))
        }
    }

    private func preferences(_ tokens: String) -> Data {
        let escaped = tokens.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
        return Data(
            """
            <?xml version='1.0' encoding='utf-8' standalone='yes' ?>
            <map>
                <int name="key_version" value="121" />
                <string name="com.authy.storage.tokens.authenticator.key">\(escaped)</string>
            </map>
            """.utf8)
    }
}
