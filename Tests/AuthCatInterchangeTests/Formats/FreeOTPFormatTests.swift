import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

final class FreeOTPFormatTests: XCTestCase {
    private func context(_ password: String) -> ImportContext {
        ImportContext(password: { SecretBytes(utf8: password) })
    }

    // MARK: FreeOTP 1 and FreeOTP+ shared preferences

    func testFreeOTP1TokensInTheirOrder() throws {
        let parsed = try FreeOTPFormat.parse(Fixture.data("freeotp.xml"), context: ImportContext())
        assertEntries(parsed, [.wwe, .issuu, .airbnb, .deno])
        XCTAssertTrue(parsed.rejections.isEmpty, "\(parsed.rejections)")
    }

    func testFreeOTPPlusInternalTokens() throws {
        let parsed = try FreeOTPFormat.parse(Fixture.data("freeotp_plus_internal.xml"), context: ImportContext())
        assertEntries(parsed, [.wwe, .airCanada, .issuu, .airbnb, .spdx, .deno])
    }

    func testTokensTheOrderLeavesOutFollowInFileOrderAndBadTokensAreRejected() throws {
        let xml = """
            <?xml version='1.0' encoding='utf-8' standalone='yes' ?>
            <map>
                <string name="b">\(token(issuer: "Steam", label: "gamer", type: "TOTP", secret: [1, 2, 3, 4, 5]))</string>
                <string name="a">\(token(issuer: "Ünïcødé", label: "李雷 🐱", type: "TOTP", secret: [-1, 0, 127, -128]))</string>
                <string name="c">\(token(issuer: "X", label: "y", type: "MOTP", secret: [1]))</string>
                <string name="d">{&quot;type&quot;:&quot;TOTP&quot;,&quot;secret&quot;:[300]}</string>
                <string name="e">not json</string>
                <int name="count" value="3" />
                <string name="tokenOrder">[&quot;a&quot;]</string>
            </map>
            """
        let parsed = try FreeOTPFormat.parse(Data(xml.utf8), context: ImportContext())
        assertEntries(
            parsed,
            [
                ExpectedAccount(
                    issuer: "Ünïcødé", name: "李雷 🐱", secret: Base32.encode(SecretBytes([255, 0, 127, 128]))),
                ExpectedAccount(
                    issuer: "Steam", name: "gamer", kind: .steam, digits: 5,
                    secret: Base32.encode(SecretBytes([1, 2, 3, 4, 5]))),
            ])
        XCTAssertEqual(parsed.rejections.map(\.position.description), ["entry 3", "entry 4", "entry 5"])
        XCTAssertEqual(parsed.rejections.map(\.kind), ["unsupported", "invalid", "invalid"])
        XCTAssertEqual(parsed.rejections[1].message, "field 'secret' should hold bytes")
    }

    private func token(issuer: String, label: String, type: String, secret: [Int]) -> String {
        let json =
            #"{"algo":"SHA1","counter":0,"digits":6,"issuerExt":"\#(issuer)","label":"\#(label)","period":30,"#
            + #""secret":\#(secret),"type":"\#(type)"}"#
        return json.replacingOccurrences(of: "\"", with: "&quot;")
    }

    func testHostileAndDamagedPreferencesAreRefused() throws {
        let damaged = "it is not well-formed XML (truncated or damaged?)"
        let cases: [(String, String)] = [
            ("<?xml version='1.0'?><map><string name=\"a\">x</string>", damaged),
            (
                "<?xml version='1.0'?><!DOCTYPE m [<!ENTITY a \"aaaa\">]><map>&a;</map>",
                "it declares a document type, which authcat does not read"
            ),
            ("<map><string name=\"a\">&a;</string></map>", damaged),
            ("<map><string name=\"a\">x</strin></map>", damaged),
            ("<?xml version='1.0'?><list/>", "it is not Android shared preferences (no <map> of named values)"),
            ("<map><set name=\"s\"><string><b>deep</b></string></set></map>", "its elements nest more than 3 deep"),
            (
                "<map>" + String(repeating: "<int name=\"n\" value=\"1\"/>", count: 200_016) + "</map>",
                "it has more than 200016 elements"
            ),
        ]
        for (xml, why) in cases {
            XCTAssertThrowsError(try FreeOTPFormat.parse(Data(xml.utf8), context: ImportContext())) { error in
                XCTAssertEqual(error as? ImportError, .malformed(.freeOTP, why))
            }
        }
    }

    // MARK: FreeOTP 2 encrypted backups

    func testFreeOTP2BackupsOfEveryAndroidVersion() throws {
        for name in ["freeotp_v2_api23.xml", "freeotp_v2_api25.xml", "freeotp_v2_api27.xml", "freeotp_v2_api34.xml"] {
            let parsed = try FreeOTPFormat.parse(Fixture.data(name), context: context("test"))
            assertEntriesInAnyOrder(parsed, [.deno, .spdx, .airbnb, .issuu, .airCanada, .wwe])
            XCTAssertTrue(parsed.rejections.isEmpty, "\(name): \(parsed.rejections)")
        }
    }

    func testATokenWithoutAlgorithmTakesItsKeysHMAC() throws {
        let parsed = try FreeOTPFormat.parse(Fixture.data("freeotp_v2_null_algo.xml"), context: context("test"))
        XCTAssertTrue(
            parsed.entries.map(ExpectedAccount.init).contains(.deno), "\(parsed.entries.map(ExpectedAccount.init))")
        XCTAssertTrue(parsed.rejections.isEmpty, "\(parsed.rejections)")
    }

    func testWrongPassword() throws {
        XCTAssertThrowsError(try FreeOTPFormat.parse(Fixture.data("freeotp_v2_api34.xml"), context: context("tesT"))) {
            XCTAssertEqual($0 as? ImportError, .wrongPassword(.freeOTP))
        }
    }

    func testHostileIterationsAreRefusedBeforeThePasswordIsAsked() throws {
        let backup = try FreeOTPBackup.make(iterations: 1_000_000_000)
        let asked = ImportContext(password: {
            XCTFail("asked for the password")
            return SecretBytes(utf8: "pw")
        })
        XCTAssertThrowsError(try FreeOTPFormat.parse(backup, context: asked)) { error in
            XCTAssertEqual(
                "\(error)",
                "the FreeOTP backup asks for 1000000000 PBKDF2 iterations for its key derivation; authcat allows at most \(PBKDF2.maximumIterations)"
            )
        }
    }

    func testABuiltBackupOpensAndEveryTruncationIsRefused() throws {
        let backup = try FreeOTPBackup.make(iterations: 10)
        let parsed = try FreeOTPFormat.parse(backup, context: context("pw"))
        assertEntries(parsed, [.airCanada])
        for length in stride(from: 0, to: backup.count, by: 7) {
            XCTAssertThrowsError(try FreeOTPFormat.parse(backup.prefix(length), context: context("pw"))) {
                XCTAssertTrue($0 is ImportError, "\(length): \($0)")
            }
        }
        var lying = backup
        let count = try XCTUnwrap(lying.range(of: Data([0x77, 0x08])))
        lying.replaceSubrange((count.upperBound + 4)..<(count.upperBound + 8), with: [0x7F, 0xFF, 0xFF, 0xFF])
        XCTAssertThrowsError(try FreeOTPFormat.parse(lying, context: context("pw"))) {
            XCTAssertEqual($0 as? ImportError, .malformed(.freeOTP, "its map claims more pairs than the file holds"))
        }
    }
}

final class FreeOTPPlusFormatTests: XCTestCase {
    func testExportInFileOrder() throws {
        let parsed = try FreeOTPPlusFormat.parse(Fixture.data("freeotp_plus.json"), context: ImportContext())
        assertEntries(parsed, [.wwe, .airCanada, .issuu, .airbnb, .spdx, .deno])
        XCTAssertTrue(parsed.rejections.isEmpty, "\(parsed.rejections)")
    }

    func testDamagedExports() throws {
        let json =
            #"{"tokenOrder":[],"tokens":[{"type":"HOTP","counter":-1,"secret":[1],"label":"a"},"#
            + #"{"type":"TOTP","secret":[],"label":"b"},{"type":"TOTP","secret":[1],"digits":11,"label":"c"}]}"#
        let parsed = try FreeOTPPlusFormat.parse(Data(json.utf8), context: ImportContext())
        XCTAssertTrue(parsed.entries.isEmpty)
        XCTAssertEqual(
            parsed.rejections.map(\.message).prefix(2),
            ["field 'counter' must not be negative", "field 'secret' is missing or empty"])
        XCTAssertEqual(parsed.rejections.count, 3)
        XCTAssertThrowsError(try FreeOTPPlusFormat.parse(Data(#"{"tokens":3}"#.utf8), context: ImportContext()))
        XCTAssertThrowsError(try FreeOTPPlusFormat.parse(Data(#"{"tokens":[{"#.utf8), context: ImportContext()))
    }
}
