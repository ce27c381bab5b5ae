import AuthCatTestSupport
import Foundation
import XCTest

/// Every `--json` output against its example in docs/JSON.md (`DocumentedJSON`).
final class JSONShapeTests: AuthCatTestCase {
    private var examples: [String: Any] = [:]

    override func setUpWithError() throws {
        try super.setUpWithError()
        examples = try DocumentedJSON.examples()
    }

    func testAccountsAndCodes() throws {
        try add("alice@example.com", issuer: "GitHub", ["--tag", "work"])
        try add("ci", issuer: "Jenkins", ["--type", "hotp", "--counter", "3"])
        try assertDocumented(["list", "--json"], as: "authcat list --json")
        try assertDocumented(["code", "github", "--json"], as: "authcat code QUERY --json")
        try assertDocumented(["code", "ci", "--json"], as: "authcat code QUERY --json")
        try assertDocumented(["code", "--json"], as: "authcat code --json")
        try assertDocumented(["show", "github", "--json"], as: "authcat show QUERY --json")
        try assertDocumented(["show", "ci", "--json"], as: "authcat show QUERY --json")
        try succeed(["edit", "github", "--name", "alice"])
        try assertDocumented(["history", "--json"], as: "authcat history --json")
        try succeed(["rm", "ci", "--yes"])
        try assertDocumented(["list", "--removed", "--json"], as: "authcat list --removed --json")
    }

    func testVaultSettings() throws {
        try add("alice", issuer: "GitHub")
        try assertDocumented(["unlock", "--status", "--json"], as: "authcat unlock --status --json")
        try succeed(["config", "set", "user.editor", "vim"])
        try assertDocumented(["config", "get", "user.editor", "--json"], as: "authcat config get KEY --json")
        // Settings' names are the keys here, so only the values' kind is checked.
        let settings = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(succeed(["config", "list", "--json"]).utf8)) as? [String: Any])
        XCTAssertEqual(settings["user.editor"] as? String, "vim")
        XCTAssertTrue(settings.values.allSatisfy { $0 is String }, "\(settings)")
    }

    func testImportAndBackups() throws {
        try add("alice", issuer: "GitHub")
        let file = authcat.root.appendingPathComponent("codes.txt")
        try Data(
            """
            otpauth://totp/GitHub:alice?secret=\(Self.rfcSecret)&issuer=GitHub
            otpauth://totp/GitLab:bob?secret=\(Self.otherSecret)&issuer=GitLab
            otpauth://totp/Bad:carol?secret=1111&issuer=Bad

            """.utf8
        ).write(to: file)
        try assertDocumented(
            ["import", file.path, "--dry-run", "--json"], as: "authcat import FILE --json", allowing: 1)
        try assertDocumented(["import", file.path, "--skip-invalid", "--json"], as: "authcat import FILE --json")
        let passphraseFile = authcat.root.appendingPathComponent("backup-passphrase")
        try Data("a long backup passphrase\n".utf8).write(to: passphraseFile)
        authcat.environment["AUTHCAT_BACKUP_PASSPHRASE_FILE"] = passphraseFile.path
        let backup = authcat.root.appendingPathComponent("nightly.authcat").path
        try assertDocumented(
            ["backup", "--output", backup, "--kdf", "interactive", "--json"], as: "authcat backup --json")
        let folder = authcat.root.appendingPathComponent("rotated")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try assertDocumented(
            [
                "backup", "--output-dir", folder.path, "--keep", "1",
                "--kdf", "interactive", "--json",
            ], as: "authcat backup --json")
        try assertDocumented(["backup", "--verify", backup, "--json"], as: "authcat backup --verify FILE --json")
        try assertDocumented(["restore-backup", backup, "--json"], as: "authcat restore-backup FILE --json")
    }

    func testSyncStatusWhenOff() throws {
        try add("alice", issuer: "GitHub")
        try assertDocumented(["sync", "status", "--json"], as: "authcat sync status --json")
    }

    func testDoctor() throws {
        try add("alice", issuer: "GitHub")
        let responder = try SNTPResponder(.skewed(seconds: 0))
        defer { responder.stop() }
        try assertDocumented(
            ["doctor", "--server", "127.0.0.1:\(responder.port)", "--json"], as: "authcat doctor --json")
        let vault = authcat.home.appendingPathComponent("vault.sqlite").path
        chmod(vault, 0o644)
        try assertDocumented(["doctor", "--no-clock", "--json"], as: "authcat doctor --json", allowing: 1)
    }

    /// Under --json each line on standard error is one JSON object; an error is the last, with the exit status.
    func testDiagnosticsAreJSONLines() throws {
        try add("alice", issuer: "GitHub")
        for index in 0..<21 { try add("user\(index)", issuer: "Bulk") }
        let notFound = try authcat.run(["code", "gitlab", "--json"])
        XCTAssertEqual(notFound.status, 1)
        try assertDiagnostics(notFound, as: "error", lastExitStatus: 1)
        let usage = try authcat.run(["list", "--json", "--no-such-option"])
        XCTAssertEqual(usage.status, 64)
        try assertDiagnostics(usage, as: "error", lastExitStatus: 64)
        let cut = try authcat.run(["history", "--json"])
        XCTAssertEqual(cut.status, 0, cut.stderr)
        try assertDiagnostics(cut, as: "warning and note", lastExitStatus: nil)
        XCTAssertTrue(cut.stderr.contains(#""level":"note""#), "the cut page is a note: \(cut.stderr)")
        XCTAssertEqual(try authcat.run(["code", "gitlab"]).stderr.hasPrefix("authcat: "), true, "without --json, text")
        XCTAssertFalse(
            try authcat.run(["code", "gitlab", "--", "--json"]).stderr.hasPrefix("{"), "--json after -- is an argument")
    }

    /// Runs `arguments`, which must succeed (or exit `allowing`), and checks stdout against the example.
    private func assertDocumented(
        _ arguments: [String], as heading: String, allowing status: Int32 = 0,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let result = try authcat.run(arguments)
        XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)", file: file, line: line)
        let example = try XCTUnwrap(
            examples[heading], "docs/JSON.md has no example for \(heading)", file: file, line: line)
        let differences = DocumentedJSON.differences(try result.json(), from: example)
        XCTAssertEqual(differences, [], "authcat \(arguments.joined(separator: " "))", file: file, line: line)
    }

    private func assertDiagnostics(
        _ result: AuthCatResult, as heading: String, lastExitStatus: Int32?,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let example = try XCTUnwrap(examples[heading], file: file, line: line)
        let objects = try result.stderrLines.map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], $0)
        }
        XCTAssertFalse(objects.isEmpty, "a diagnostic was written", file: file, line: line)
        for object in objects {
            XCTAssertEqual(DocumentedJSON.differences(object, from: example), [], "\(object)", file: file, line: line)
        }
        XCTAssertEqual((objects.last?["exit_status"] as? NSNumber)?.int32Value, lastExitStatus, file: file, line: line)
    }
}

/// `sync now`, `sync compact`, `sync status` and `sync devices` on a real folder remote.
final class JSONShapeSyncTests: SyncTestCase {
    func testSyncReports() throws {
        let examples = try DocumentedJSON.examples()
        let device = try makeDevice()
        try add(device, "alice", issuer: "GitHub")
        try enable(device)
        try add(device, "bob", issuer: "GitLab")
        for (arguments, heading) in [
            (["sync", "now", "--json"], "authcat sync now --json"),
            (["sync", "compact", "--json"], "authcat sync now --json"),
            (["sync", "status", "--json"], "authcat sync status --json"),
            (["sync", "devices", "--json"], "authcat sync devices --json"),
        ] {
            let output = try succeed(device, arguments)
            let differences = DocumentedJSON.differences(
                try JSONSerialization.jsonObject(with: Data(output.utf8)),
                from: try XCTUnwrap(examples[heading]))
            XCTAssertEqual(differences, [], arguments.joined(separator: " "))
        }
    }
}
