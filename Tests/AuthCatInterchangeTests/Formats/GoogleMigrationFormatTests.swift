import AuthCatCore
import AuthCatEssentials
import Foundation
import XCTest

@testable import AuthCatInterchange

final class GoogleMigrationFormatTests: XCTestCase {
    func testExportOfTwoCodesMadeIndependently() throws {
        let parsed = try GoogleMigrationFormat.parse(Fixture.data("google_migration.txt"), context: ImportContext())
        var expected = Array(ExpectedAccount.standard.prefix(4))
        expected[1].period = 30  // Google has no period field: every code is 30 s.
        expected[2].issuer = ""
        assertEntries(parsed, expected)
        XCTAssertEqual(
            parsed.entries.map(\.position.description),
            ["line 1, account 1", "line 1, account 2", "line 2, account 1", "line 2, account 2"])
        XCTAssertEqual(parsed.rejections.map(\.position.description), ["line 2, account 3"])
        XCTAssertEqual(parsed.rejections.first?.kind, "unsupported")
        XCTAssertTrue(parsed.warnings.isEmpty)
    }

    /// Google Authenticator's own exports, kept by extract_otp_secrets: comments
    /// and blank lines between codes, a batch of two, HOTP, a name with a colon
    /// and no issuer (read as `issuer:name`, as Aegis reads it).
    func testTheAppsExportsWithCommentsAndBlankLines() throws {
        let parsed = try GoogleMigrationFormat.parse(
            Fixture.data("google_migration_example.txt"), context: ImportContext())
        let secret = "7KSQL2JTUDIS5EF65KLMRQIIGY"
        let named = ExpectedAccount(issuer: "raspberrypi", name: "pi@raspberrypi", secret: secret)
        let bare = ExpectedAccount(issuer: "", name: "pi@raspberrypi", secret: secret)
        assertEntries(
            parsed,
            [
                named, bare, bare, named,
                ExpectedAccount(issuer: "", name: "hotp demo", kind: .hotp, counter: 4, secret: secret),
                ExpectedAccount(issuer: "encoding", name: "¿äÄéÉ? (demo)", secret: secret),
            ])
        XCTAssertTrue(parsed.rejections.isEmpty, "\(parsed.rejections)")
        XCTAssertTrue(parsed.warnings.isEmpty, "\(parsed.warnings)")
    }

    /// An export whose base64 keeps its `+` and `/` unescaped, as some QR readers give it.
    func testAnExportWithUnescapedBase64() throws {
        let parsed = try GoogleMigrationFormat.parse(
            Fixture.data("google_migration_unescaped.txt"), context: ImportContext())
        let secrets = [
            "A4RFDYMF4GSLUIBQV4ZP67OJEZ2XUQVM", "SCDDZ7PW5MOZLE3PQCAZM7L4S35K3UDX",
            "TR76272RVYO6EAEY2FX7W7R7KUDEGPJ4", "N2ILWSXSJUQUB7S6NONPJSC62NPG7EXN",
        ]
        assertEntries(
            parsed,
            secrets.enumerated().map {
                ExpectedAccount(
                    issuer: "SerenityLabs", name: "test\($0.offset + 1)@serenitylabs.co.uk", secret: $0.element)
            })
        XCTAssertEqual(try FormatDetector.detect(Fixture.data("google_migration_unescaped.txt")), .google)
        XCTAssertEqual(try FormatDetector.detect(Fixture.data("google_migration_example.txt")), .google)
    }

    func testAMissingBatchCodeIsReported() throws {
        let lines = try Fixture.text("google_migration.txt").split(separator: "\n")
        let parsed = try GoogleMigrationFormat.parse(Data(lines[1].utf8), context: ImportContext())
        XCTAssertEqual(parsed.entries.count, 2)
        XCTAssertEqual(parsed.warnings.count, 1)
        XCTAssertTrue(parsed.warnings[0].contains("code 1 is missing"), parsed.warnings[0])
    }

    func testExportRoundTripInBatchesAndOmissions() throws {
        var items: [ExportItem] = []
        for index in 0..<23 {
            items.append(
                ExportItem(
                    account: account(
                        "Issuer \(index)", "user\(index)",
                        otp: OTPParameters(
                            kind: index % 2 == 0 ? .totp : .hotp, algorithm: .sha256, digits: 8,
                            counter: UInt64(index % 2 * index))),
                    secret: try SecretBytes.random(count: 20)))
        }
        items.append(
            ExportItem(
                account: account("Steam", "s", otp: OTPParameters(kind: .steam)),
                secret: try SecretBytes.random(count: 10)))
        items.append(
            ExportItem(
                account: account("Slow", "p", otp: OTPParameters(period: 60)), secret: try SecretBytes.random(count: 10)
            ))
        let (uris, omitted) = try GoogleMigrationFormat.uris(for: items, batchID: 42)
        XCTAssertGreaterThan(uris.count, 2)
        for uri in uris {
            XCTAssertLessThanOrEqual(try QRCode.encode(uri).size, 73, "each code fits an 80-column terminal")
        }
        XCTAssertEqual(omitted.map(\.label), ["Steam:s", "Slow:p"])
        let parsed = try GoogleMigrationFormat.parse(Data(uris.joined(separator: "\n").utf8), context: ImportContext())
        XCTAssertTrue(parsed.warnings.isEmpty && parsed.rejections.isEmpty)
        XCTAssertEqual(
            parsed.entries.map(ExpectedAccount.init),
            items.prefix(23).map { ExpectedAccount($0.account, secret: $0.secret) })
        let payload = try GoogleMigrationFormat.decode(uri: Substring(uris[2]))
        XCTAssertEqual(
            [payload.batchSize, payload.batchIndex, payload.batchID, payload.version], [Int32(uris.count), 2, 42, 1])
    }

    func testBrokenLinesAreRejectedByLine() throws {
        let text = """
            otpauth-migration://offline?data=%%%
            otpauth-migration://offline?other=1
            otpauth-migration://offline?data=CjQKCkhlbGxvId6t
            otpauth://totp/A:b?secret=JBSWY3DPEHPK3PXP
            """
        let parsed = try GoogleMigrationFormat.parse(Data(text.utf8), context: ImportContext())
        XCTAssertTrue(parsed.entries.isEmpty)
        XCTAssertEqual(parsed.rejections.map(\.position.description), ["line 1", "line 2", "line 3", "line 4"])
        XCTAssertEqual(
            parsed.rejections.map(\.message),
            [
                "its data parameter is not base64", "it has no data parameter",
                "its data is not a Google Authenticator export (damaged or cut off?)",
                "it is not an otpauth-migration:// URI",
            ])
    }

    func testNamesWithAndWithoutIssuerPrefix() {
        var parameters = GoogleMigrationPayload.OtpParameters()
        parameters.name = "GitHub:alice"
        XCTAssertTrue(GoogleMigrationFormat.names(parameters) == ("GitHub", "alice"))
        parameters.issuer = "github"
        XCTAssertTrue(GoogleMigrationFormat.names(parameters) == ("github", "alice"))
        parameters.issuer = "Other"
        XCTAssertTrue(GoogleMigrationFormat.names(parameters) == ("Other", "GitHub:alice"))
    }
}
