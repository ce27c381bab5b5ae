import Foundation
import XCTest

final class InterchangeExportTests: InterchangeTests {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try succeed(["import", fixture("aegis_plain.json")])
    }

    func testAPlainExportNeedsAnExplicitDestination() throws {
        assertOneLineError(
            try authcat.run(["export", "--format", "otpauth"]),
            containing: "--output (created 0600) or print it with --stdout", status: 64)
        assertOneLineError(
            try authcat.run(["export", "--format", "json", "--output", "-"]), containing: "say --stdout", status: 64)
        assertOneLineError(
            try authcat.run(["export", "--format", "aegis", "--qr"]), containing: "--qr draws otpauth and google",
            status: 64)
        let printed = try succeed(["export", "--format", "otpauth", "--stdout"])
        XCTAssertEqual(printed.split(separator: "\n").count, 6)
        XCTAssertTrue(printed.contains("secret=JBSWY3DPEHPK3PXP"))
    }

    func testEveryExactFormatRoundTripsIntoAnEmptyVault() throws {
        let original = try accountsWithoutIDs(home: authcat.home.path)
        let originalURIs = try uris(home: authcat.home.path)
        for format in ["otpauth", "aegis", "json"] {
            let file = authcat.root.appendingPathComponent("export.\(format)").path
            let output = try succeed(["export", "--format", format, "--output", file])
            XCTAssertEqual(output, "exported 6 accounts to \(file) (\(format))\n")
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            XCTAssertEqual(mode, 0o600, format)
            let home = otherHome("from-\(format)")
            let imported = try authcat.run(["--home", home, "import", file], withHome: false)
            XCTAssertEqual(imported.status, 0, imported.stderr)
            XCTAssertTrue(imported.stdout.contains("skipped 0, rejected 0"), imported.stdout)
            XCTAssertEqual(try accountsWithoutIDs(home: home), original, format)
            XCTAssertEqual(try uris(home: home), originalURIs, format)
        }
    }

    func testAnEncryptedAegisExportRoundTripsWithItsPasswordOnly() throws {
        let originalURIs = try uris(home: authcat.home.path)
        let file = authcat.root.appendingPathComponent("aegis-encrypted.json").path
        let password = try scratch("export-password", "a long export password\n")
        let output = try succeed(
            ["export", "--format", "aegis", "--encrypt", "--output", file],
            environment: ["AUTHCAT_EXPORT_PASSPHRASE_FILE": password])
        XCTAssertEqual(output, "exported 6 accounts to \(file) (aegis)\n")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertFalse(text.contains("JBSWY3DPEHPK3PXP"), "no secret in clear")
        XCTAssertFalse(text.contains("alice"), "no name in clear")

        let home = otherHome("from-encrypted")
        let wrong = try scratch("wrong", "not the password\n")
        assertOneLineError(
            try authcat.run(
                ["--home", home, "import", file], environment: ["AUTHCAT_IMPORT_PASSPHRASE_FILE": wrong],
                withHome: false), containing: "the password does not open this Aegis vault", status: 1)
        let imported = try authcat.run(
            ["--home", home, "import", file], environment: ["AUTHCAT_IMPORT_PASSPHRASE_FILE": password],
            withHome: false)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(try uris(home: home), originalURIs)

        // A password is never taken from the command line, and a short one is refused.
        let short = try scratch("short", "short\n")
        assertOneLineError(
            try authcat.run(
                ["export", "--format", "aegis", "--encrypt", "--output", file + ".2"],
                environment: ["AUTHCAT_EXPORT_PASSPHRASE_FILE": short]), containing: "at least 8", status: 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file + ".2"))
        assertOneLineError(
            try authcat.run(["export", "--format", "2fas", "--encrypt", "--output", file + ".3"]),
            containing: "--encrypt encrypts aegis exports only", status: 64)
    }

    func testA2FASExportRoundTripsWhat2FASCanHold() throws {
        let file = authcat.root.appendingPathComponent("export.2fas").path
        let result = try authcat.run(["export", "--format", "2fas", "--output", file])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "exported 5 accounts to \(file) (2fas)\n")
        XCTAssertEqual(result.stderrLines, ["authcat: warning: left out Yandex:ivan: 2FAS has no yandex accounts"])
        let home = otherHome("from-2fas")
        let imported = try authcat.run(["--home", home, "import", file], withHome: false)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let expected = try uris(home: authcat.home.path).filter { !$0.hasPrefix("otpauth://yaotp/") }
        XCTAssertEqual(expected.count, 5)
        XCTAssertEqual(try uris(home: home), expected)
    }

    func testGoogleExportLeavesOutWhatGoogleCannotHoldAndDrawsCodes() throws {
        let file = authcat.root.appendingPathComponent("google.txt").path
        let result = try authcat.run(["export", "--format", "google", "--output", file])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stderrLines,
            [
                "authcat: warning: left out Steam:gamer: Google Authenticator has no Steam codes",
                "authcat: warning: left out Yandex:ivan: Google Authenticator has no Yandex codes",
                "authcat: warning: left out Ünïcødé Bank:李雷 🐱: Google Authenticator only imports 30-second codes, not 60-second ones",
            ])
        XCTAssertEqual(result.stdout, "exported 3 accounts to \(file) (google)\n")
        let home = otherHome()
        XCTAssertEqual(try authcat.run(["--home", home, "import", file], withHome: false).status, 0)
        XCTAssertEqual(try accountsWithoutIDs(home: home).count, 3)

        let drawn = try authcat.run(["export", "--format", "google", "--qr"])
        XCTAssertEqual(drawn.status, 0, drawn.stderr)
        let lines = drawn.stdoutLines
        XCTAssertFalse(drawn.stdout.contains("otpauth-migration"), "the codes are drawn, not printed")
        XCTAssertTrue(
            lines.allSatisfy { $0.allSatisfy { " ▀▄█".contains($0) } || $0.hasPrefix("QR code") }, drawn.stdout)
        XCTAssertTrue(lines.allSatisfy { $0.count <= 80 }, "each code fits an 80-column terminal")
    }

    func testShowDrawsOneAccountAsAQRCode() throws {
        let drawn = try succeed(["show", "github", "--qr"])
        XCTAssertFalse(drawn.contains("otpauth://"))
        let lines = drawn.split(separator: "\n")
        XCTAssertGreaterThan(lines.count, 10)
        XCTAssertTrue(lines.allSatisfy { $0.allSatisfy { " ▀▄█".contains($0) } }, drawn)
        XCTAssertEqual(Set(lines.map(\.count)).count, 1, "a square block of text")
        XCTAssertTrue(try succeed(["show", "github", "--qr", "--uri"]).hasPrefix("otpauth://totp/GitHub:"))
    }

    func testExportWithoutAVaultOrToABadPath() throws {
        assertOneLineError(
            try authcat.run(["--home", otherHome("none"), "export", "--format", "json", "--stdout"], withHome: false),
            containing: "no accounts in", status: 1)
        assertOneLineError(
            try authcat.run(["export", "--format", "json", "--output", "/nonexistent-dir/x.json"]),
            containing: "cannot write /nonexistent-dir/x.json", status: 1)
    }
}
