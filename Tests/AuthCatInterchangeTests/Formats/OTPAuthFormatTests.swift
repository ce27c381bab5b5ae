import AuthCatCore
import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

final class OTPAuthFormatTests: XCTestCase {
    func testEnteStyleExportWithAllKindsTagsAndNotes() throws {
        let parsed = try OTPAuthFormat.parse(Fixture.data("otpauth.txt"), context: ImportContext())
        assertEntries(parsed, ExpectedAccount.standard(tags: [["Work"]], notes: ["recovery codes in the safe"]))
        XCTAssertEqual(
            parsed.rejections.map(\.position.description), ["line 8", "line 9"], "otpauth://motp is no one's format")
        XCTAssertEqual(parsed.rejections.map(\.kind), ["unsupported", "unsupported"])
        XCTAssertTrue(parsed.rejections[0].message.contains("motp"), parsed.rejections[0].message)
        XCTAssertTrue(parsed.rejections[0].message.contains("motp:// line"), "where mOTP does come in")
        XCTAssertTrue(parsed.rejections[1].message.contains("trash"), parsed.rejections[1].message)
        XCTAssertEqual(parsed.rejections[0].label, "Legacy:motp")
    }

    func testYandexAndMOTPLinesAsAegisWritesThem() throws {
        let text = """
            otpauth://yaotp/Yandex:ivan?secret=LA2V6KMCGYMWWVEW64RNP3JA3I&issuer=Yandex&algorithm=SHA256&digits=8&period=30&pin=G42TQNQ
            motp://PfSense:jimmy?secret=e3152afee62599c8&issuer=PfSense&pin=GEZDGNA
            motp://PfSense:nopin?secret=e3152afee62599c8
            otpauth://totp/Proton:seventeen?secret=JBSWY3DPEHPK3PXPQ
            """
        let parsed = try OTPAuthFormat.parse(Data(text.utf8), context: ImportContext())
        XCTAssertEqual(parsed.entries.map(\.label), ["Yandex:ivan", "PfSense:jimmy", "Proton:seventeen"])
        XCTAssertEqual(parsed.entries.map(\.draft.otp.kind), [.yandex, .motp, .totp])
        XCTAssertEqual(parsed.rejections.map(\.label), ["PfSense:nopin"])
        XCTAssertEqual(parsed.warnings.count, 1)
        XCTAssertTrue(
            parsed.warnings[0].hasPrefix("line 4 (Proton:seventeen): the secret has 17 Base32 characters"),
            parsed.warnings[0])
        XCTAssertEqual(try FormatDetector.detect(Data("motp://a?secret=00\n".utf8)), .otpauth)
        // Exported again, both read back the same.
        for entry in parsed.entries.prefix(2) {
            let item = ExportItem(
                account: Account(
                    id: UUID(), issuer: entry.draft.issuer, name: entry.draft.name, otp: entry.draft.otp,
                    createdAt: Date(), updatedAt: Date()),
                secret: entry.draft.secret, pin: entry.draft.pin)
            let again = try OTPAuthFormat.entry(Substring(OTPAuthFormat.uri(for: item)), position: .line(1, entry: 1))
            XCTAssertEqual(again.draft.pin, entry.draft.pin)
            XCTAssertEqual(again.draft.secret, entry.draft.secret)
        }
    }

    func testBadLinesAreRejectedByLineWithoutTheSecret() throws {
        let text = """
            otpauth://totp/A:one?secret=JBSWY3DPEHPK3PXP
            otpauth://totp/B:two?secret=NOT*BASE32SECRET
            https://example.com/not-a-uri
            otpauth://totp/C:three?secret=JBSWY3DPEHPK3PXP&digits=12
            otpauth://totp/D:four?secret=JBSWY3DPEHPK3PXP&algorithm=MD5
            """
        let parsed = try OTPAuthFormat.parse(Data(text.utf8), context: ImportContext())
        XCTAssertEqual(parsed.entries.count, 1)
        XCTAssertEqual(parsed.rejections.map(\.position.description), ["line 2", "line 3", "line 4", "line 5"])
        XCTAssertEqual(parsed.rejections.map(\.kind), ["invalid", "invalid", "invalid", "unsupported"])
        for rejection in parsed.rejections {
            XCTAssertFalse(rejection.description.contains("NOT*BASE32SECRET"), rejection.description)
            XCTAssertFalse(rejection.description.contains("JBSWY3DPEHPK3PXP"), rejection.description)
        }
    }

    func testCRLFLineEndingsAndAByteOrderMark() throws {
        let text =
            "\u{FEFF}otpauth://totp/A:one?secret=JBSWY3DPEHPK3PXP\r\n\r\notpauth://totp/B:two?secret=JBSWY3DPEHPK3PXP\r\n"
        let parsed = try OTPAuthFormat.parse(Data(text.utf8), context: ImportContext())
        XCTAssertEqual(parsed.entries.map(\.label), ["A:one", "B:two"])
        XCTAssertEqual(parsed.entries.map(\.position.description), ["line 1", "line 3"])
    }

    func testBinaryGarbageIsAClearError() {
        XCTAssertThrowsError(try OTPAuthFormat.parse(Data([0xff, 0xfe, 0x00, 0x80]), context: ImportContext())) {
            error in
            XCTAssertEqual(error as? ImportError, .malformed(.otpauth, "it is not UTF-8 text"))
        }
    }

    func testExportWritesTagsAndNotesOnlyWhenPresent() throws {
        let plain = ExportItem(
            account: account("GitHub", "a", tags: [], note: ""), secret: try Base32Secret("JBSWY3DPEHPK3PXP"))
        XCTAssertFalse(OTPAuthFormat.uri(for: plain).contains("codeDisplay"))
        let tagged = ExportItem(
            account: account("GitHub", "b", tags: ["Work", "a&b"], note: "x=1 \"quoted\""),
            secret: try Base32Secret("JBSWY3DPEHPK3PXP"))
        let uri = OTPAuthFormat.uri(for: tagged)
        let entry = try OTPAuthFormat.entry(Substring(uri), position: .entry(1))
        XCTAssertEqual(entry.draft.tags, ["Work", "a&b"])
        XCTAssertEqual(entry.draft.note, "x=1 \"quoted\"")
    }
}
