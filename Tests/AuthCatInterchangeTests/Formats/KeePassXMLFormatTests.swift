import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

/// keepassxc.xml is KeePassXC 2.7.4's own output: a KeePass 2 XML file with
/// the standard accounts (as `otp` URIs, KeeOtp's `key=` settings and the
/// legacy `TOTP Seed`/`TOTP Settings` fields) imported by `keepassxc-cli
/// import`, GitHub's user name edited (so that the entry has a past
/// version), one entry deleted to the recycle bin, then `keepassxc-cli
/// export --format xml` (Fixtures/README.md).
final class KeePassXMLFormatTests: XCTestCase {
    private func parse(_ xml: String) throws -> ParsedImport {
        try KeePassXMLFormat.parse(Data(xml.utf8), context: ImportContext())
    }

    /// A file of one root group holding `body`.
    private func file(_ body: String, meta: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <KeePassFile><Meta>\(meta)</Meta><Root><Group><UUID>AA==</UUID><Name>Root</Name>\(body)</Group></Root></KeePassFile>
        """
    }

    private func entry(_ fields: [(String, String)], protected: Set<String> = []) -> String {
        let strings = fields.map { key, value in
            let attribute = protected.contains(key) ? " Protected=\"True\"" : ""
            return "<String><Key>\(key)</Key><Value\(attribute)>\(value)</Value></String>"
        }
        return "<Entry>\(strings.joined())</Entry>"
    }

    func testKeePassXCsOwnExport() throws {
        let parsed = try KeePassXMLFormat.parse(Fixture.data("keepassxc.xml"), context: ImportContext())
        var github = ExpectedAccount.standard[0]
        github.tags = ["Work"]
        github.note = "recovery codes in the safe & a <note>\non two lines"
        var hotp = ExpectedAccount.standard[3]
        hotp.tags = ["Work/Dev"]
        assertEntries(
            parsed,
            [
                ExpectedAccount.standard[1], ExpectedAccount.standard[2], ExpectedAccount.standard[4],
                ExpectedAccount(issuer: "Legacy", name: "erin", digits: 7, period: 60, secret: "MFRGGZDFMZTWQ2LK"),
                github, hotp,
            ])
        XCTAssertEqual(
            parsed.entries.map(\.position.description),
            ["entry 1", "entry 2", "entry 3", "entry 4", "entry 6", "entry 7"])
        XCTAssertEqual(
            parsed.warnings,
            ["1 entry has no TOTP and was left out", "1 entry in the recycle bin was left out"])
        XCTAssertTrue(parsed.rejections.isEmpty, "\(parsed.rejections)")
    }

    func testEveryWayAnEntryKeepsItsCode() throws {
        let parsed = try parse(
            file(
                entry([
                    ("Title", "Plain"), ("UserName", "u1"), ("TOTP Seed", "JBSW Y3DP EHPK 3PXP"), ("TOTP Settings", ""),
                ])
                    + entry([
                        ("Title", "Steam"), ("UserName", "s"), ("TOTP Seed", "ONSWG4TFOQ"), ("TOTP Settings", "30;S"),
                    ])
                    + entry([
                        ("Title", "Seed URI"), ("TOTP Seed", "otpauth://totp/X:y?secret=MFRGGZDFMZTWQ2LK&amp;issuer=X"),
                    ])
                    + entry([
                        ("Title", "Both"), ("UserName", "b"),
                        ("otp", "key=MFRGGZDFMZTWQ2LK&amp;type=Hotp&amp;counter=7"),
                        ("TOTP Seed", "JBSWY3DPEHPK3PXP"),
                    ])
                    + entry([
                        ("Title", "Ünïcødé"), ("UserName", "李雷"), ("TOTP Seed", "JBSWY3DPEHPK3PXP"),
                        ("TOTP Settings", "60;8"),
                    ])
                    + "<Group><Name>A</Name><Group><Name>B/C</Name>"
                    + entry([
                        ("Title", "Deep"), ("Notes", "n"), ("otp", "otpauth://totp/Deep:d?secret=JBSWY3DPEHPK3PXP"),
                    ])
                    + "</Group></Group>"))
        assertEntries(
            parsed,
            [
                ExpectedAccount(issuer: "Plain", name: "u1", secret: "JBSWY3DPEHPK3PXP"),
                ExpectedAccount(issuer: "Steam", name: "s", kind: .steam, digits: 5, secret: "ONSWG4TFOQ"),
                ExpectedAccount(issuer: "X", name: "y", secret: "MFRGGZDFMZTWQ2LK"),
                ExpectedAccount(issuer: "Both", name: "b", kind: .hotp, counter: 7, secret: "MFRGGZDFMZTWQ2LK"),
                ExpectedAccount(issuer: "Ünïcødé", name: "李雷", digits: 8, period: 60, secret: "JBSWY3DPEHPK3PXP"),
                ExpectedAccount(issuer: "Deep", name: "d", secret: "JBSWY3DPEHPK3PXP", tags: ["A/B/C"], note: "n"),
            ])
    }

    /// KeePass 2.47's own fields, in each encoding KeePass offers.
    func testKeePass2sOwnOTPFields() throws {
        let parsed = try parse(
            file(
                entry([
                    ("Title", "B32"), ("UserName", "u"), ("TimeOtp-Secret-Base32", "JBSWY3DPEHPK3PXP"),
                    ("TimeOtp-Length", "8"), ("TimeOtp-Period", "60"), ("TimeOtp-Algorithm", "HMAC-SHA-256"),
                ])
                    + entry([("Title", "Hex"), ("TimeOtp-Secret-Hex", "48656c6c6f21deadbeef")])
                    + entry([("Title", "B64"), ("TimeOtp-Secret-Base64", "SGVsbG8h3q2+7w==")])
                    + entry([("Title", "Text"), ("TimeOtp-Secret", "12345678901234567890")])
                    + entry([
                        ("Title", "HOTP"), ("HmacOtp-Secret-Base32", "MFRGGZDFMZTWQ2LK"), ("HmacOtp-Counter", "42"),
                    ])
                    + entry([
                        ("Title", "MD5"), ("TimeOtp-Secret-Base32", "JBSWY3DPEHPK3PXP"),
                        ("TimeOtp-Algorithm", "HMAC-MD5"),
                    ])
                    + entry([("Title", "Len"), ("TimeOtp-Secret-Base32", "JBSWY3DPEHPK3PXP"), ("TimeOtp-Length", "x")]))
        )
        assertEntries(
            parsed,
            [
                ExpectedAccount(
                    issuer: "B32", name: "u", algorithm: .sha256, digits: 8, period: 60, secret: "JBSWY3DPEHPK3PXP"),
                ExpectedAccount(issuer: "", name: "Hex", secret: "JBSWY3DPEHPK3PXP"),
                ExpectedAccount(issuer: "", name: "B64", secret: "JBSWY3DPEHPK3PXP"),
                ExpectedAccount(issuer: "", name: "Text", secret: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"),
                ExpectedAccount(issuer: "", name: "HOTP", kind: .hotp, counter: 42, secret: "MFRGGZDFMZTWQ2LK"),
            ])
        XCTAssertEqual(
            parsed.rejections.map(\.description),
            [
                "entry 6 (MD5): algorithm 'HMAC-MD5' is not supported (only SHA1, SHA256 and SHA512)",
                "entry 7 (Len): its 'TimeOtp-Length' is not a number",
            ])
    }

    func testBadEntriesAreRejectedByPositionWithoutTheirSecrets() throws {
        let parsed = try parse(
            file(
                entry([("Title", "A"), ("otp", "JBSWY3DPEHPK3PXP")])
                    + entry([("Title", "B"), ("TOTP Seed", "JBSWY3DPEHPK3PXP"), ("TOTP Settings", "thirty;6")])
                    + entry([("Title", "C"), ("TOTP Seed", "JBSWY3DPEHPK3PXP"), ("TOTP Settings", "30;99")])
                    + entry([("Title", "D"), ("otp", "b64+SALSA20==")], protected: ["otp"])
                    + entry([("Title", "E otpauth://x"), ("TOTP Seed", "JBSWY3DP1HPK3PXP")])))
        XCTAssertEqual(parsed.entries.count, 0)
        XCTAssertEqual(
            parsed.rejections.map(\.description),
            [
                "entry 1 (A): its TOTP is neither an otpauth:// URI nor key=… settings",
                "entry 2 (B): its 'TOTP Settings' are not STEP;DIGITS",
                "entry 3 (C): digits must be between 6 and 10, not 99",
                "entry 4 (D): its TOTP is encrypted for the database file it came from; export the database as XML again",
                parsed.rejections[4].description,
            ])
        XCTAssertNil(parsed.rejections[4].label)
        assertNoRejectionQuotes("JBSWY3DP", in: parsed)
    }

    func testRecycleBinAndPastVersionsAreLeftOut() throws {
        let code = [("Title", "T"), ("otp", "otpauth://totp/T:t?secret=JBSWY3DPEHPK3PXP")]
        let bin =
            "<Group><UUID>Ymlu</UUID><Name>Recycle Bin</Name>\(entry(code))<Group><Name>Old</Name>\(entry(code))</Group></Group>"
        let history =
            "<Entry><String><Key>Title</Key><Value>Now</Value></String><History>\(entry(code))</History></Entry>"
        let parsed = try parse(file(bin + history, meta: "<RecycleBinUUID>Ymlu</RecycleBinUUID>"))
        XCTAssertEqual(parsed.entries.count, 0)
        XCTAssertEqual(
            parsed.warnings, ["1 entry has no TOTP and was left out", "2 entries in the recycle bin were left out"])
    }

    func testDamagedAndHostileFiles() {
        let cases: [(String, String)] = [
            ("<KeePassFile><Root>", "it is not well-formed XML (truncated or damaged?)"),
            ("<map></map>", "it is not a KeePass XML export (no <KeePassFile> with a root group)"),
            (
                "<KeePassFile><Root/></KeePassFile>",
                "it is not a KeePass XML export (no <KeePassFile> with a root group)"
            ),
            (
                "<!DOCTYPE k [<!ENTITY a 'aaaa'>]><KeePassFile/>",
                "it declares a document type, which authcat does not read"
            ),
            (String(repeating: "<Group>", count: 65), "its elements nest more than 64 deep"),
        ]
        for (xml, why) in cases {
            XCTAssertThrowsError(try parse(xml), xml) { error in
                XCTAssertEqual(error as? ImportError, .malformed(.keepassXML, why))
            }
        }
    }
}
