import AuthCatTestSupport
import Foundation
import XCTest

/// `authcat doctor` run as a process, its clock checked against a time
/// server on loopback (`SNTPResponder`).
final class DoctorCommandTests: AuthCatTestCase {
    private var responder: SNTPResponder?

    override func tearDown() {
        responder?.stop()
        super.tearDown()
    }

    /// A time server on loopback; returns its `--server` argument.
    private func timeServer(_ behaviour: SNTPResponder.Behaviour) throws -> String {
        let responder = try SNTPResponder(behaviour)
        self.responder = responder
        return "127.0.0.1:\(responder.port)"
    }

    private func doctor(_ arguments: [String], environment: [String: String] = [:]) throws -> AuthCatResult {
        try authcat.run(["doctor"] + arguments, environment: environment, timeout: 30)
    }

    /// The line of the finding for `check`, its columns' padding squeezed to
    /// two spaces: "problem  clock  this machine's clock is…".
    private func line(_ result: AuthCatResult, check: String) -> String? {
        for line in result.stdoutLines {
            let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            guard words.count == 3, words[1] == Substring(check) else { continue }
            return "\(words[0])  \(words[1])  \(words[2].drop { $0 == " " })"
        }
        return nil
    }

    func testASkewedClockIsAProblem() throws {
        try add("alice", issuer: "GitHub")
        let result = try doctor(["--server", try timeServer(.skewed(seconds: 300))])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        let clock = try XCTUnwrap(line(result, check: "clock"), result.stdout)
        XCTAssertTrue(clock.hasPrefix("problem  clock"), clock)
        XCTAssertTrue(clock.contains("this machine's clock is 300 s behind 127.0.0.1:"), clock)
        XCTAssertTrue(clock.contains("timedatectl set-ntp true"), clock)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(responder?.requestCount, 1)
    }

    func testATimeoutOutsideItsRangeIsAUsageError() throws {
        for timeout in ["0", "61", "-1"] {
            assertOneLineError(
                try authcat.run(["doctor", "--timeout=\(timeout)"]), containing: "--timeout must be 0.1 to 60 seconds",
                status: 64)
        }
    }

    func testAGoodClockAndAPrivateVaultExitZero() throws {
        try add("alice", issuer: "GitHub")
        let result = try doctor(["--server", try timeServer(.skewed(seconds: 0))])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(
            line(result, check: "clock")?.hasPrefix("ok  clock  this machine's clock is") == true, result.stdout)
        XCTAssertTrue(line(result, check: "permissions")?.hasPrefix("ok") == true, result.stdout)
        XCTAssertTrue(line(result, check: "passphrase")?.contains("no passphrase") == true, result.stdout)
        // The check says sync; the message does not repeat it ("sync: off: sync is off").
        let sync = try XCTUnwrap(line(result, check: "sync"), result.stdout)
        XCTAssertTrue(sync.hasPrefix("ok  sync  off; "), sync)
        XCTAssertFalse(sync.contains("sync is off"), sync)
        XCTAssertNotNil(line(result, check: "clipboard"), result.stdout)
        XCTAssertNotNil(line(result, check: "completion"), result.stdout)
        XCTAssertFalse(result.stdout.contains(Self.rfcSecret))
    }

    func testAReadableVaultFileIsAProblem() throws {
        try add("alice", issuer: "GitHub")
        XCTAssertEqual(chmod(authcat.databaseURL.path, 0o644), 0)
        let result = try doctor(["--no-clock"])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        let path = authcat.databaseURL.path
        XCTAssertTrue(
            result.stdoutLines.contains(
                "problem  permissions  \(path) has mode 644: others can read it; run: chmod 600 \(path)"), result.stdout
        )
        XCTAssertNil(line(result, check: "clock"), "--no-clock asks no server")
    }

    /// A vault file its owner cannot write (0400) breaks adding, editing and
    /// HOTP: a problem of its own, with the command that fixes it.
    func testAVaultFileYouCannotWriteIsAProblem() throws {
        try add("alice", issuer: "GitHub")
        let path = authcat.databaseURL.path
        XCTAssertEqual(chmod(path, 0o400), 0)
        defer { chmod(path, 0o600) }
        let result = try doctor(["--no-clock"])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertEqual(
            line(result, check: "writable"),
            "problem  writable  \(path) is not writable by you: adding, editing and HOTP codes fail; run: chmod 600 \(path)",
            result.stdout)
        XCTAssertEqual(
            line(result, check: "permissions")?.hasPrefix("ok"), true, "a separate finding: \(result.stdout)")
        XCTAssertEqual(chmod(path, 0o600), 0)
        XCTAssertNil(line(try doctor(["--no-clock"]), check: "writable"))
    }

    /// A clipboard tool without a display cannot copy: --copy only prints then.
    func testAClipboardToolWithoutADisplayIsAWarning() throws {
        let bin = authcat.root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for tool in ["xclip"] {
            let script = bin.appendingPathComponent(tool)
            try "#!/bin/sh\nexit 1\n".write(to: script, atomically: true, encoding: .utf8)
            XCTAssertEqual(chmod(script.path, 0o755), 0)
        }
        let result = try doctor(["--no-clock"], environment: ["PATH": bin.path, "DISPLAY": "", "WAYLAND_DISPLAY": ""])
        let clipboard = try XCTUnwrap(line(result, check: "clipboard"), result.stdout)
        XCTAssertTrue(
            clipboard.hasPrefix(
                "warning  clipboard  code --copy uses \(bin.path)/xclip, but this session has no display"),
            clipboard)
        XCTAssertEqual(result.status, 0, "a warning alone: \(result.stdout)")
    }

    func testAPassphraseFileOthersCanReadIsAProblem() throws {
        try add("alice", issuer: "GitHub")
        let passphrase = authcat.root.appendingPathComponent("passphrase")
        try Data("correct horse battery staple\n".utf8).write(to: passphrase)
        XCTAssertEqual(chmod(passphrase.path, 0o644), 0)
        let environment = ["AUTHCAT_PASSPHRASE_FILE": passphrase.path]
        let result = try doctor(["--no-clock"], environment: environment)
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        let finding = try XCTUnwrap(line(result, check: "passphrase_file"), result.stdout)
        XCTAssertTrue(finding.hasPrefix("problem  passphrase_file"), finding)
        XCTAssertTrue(finding.contains("has mode 644: others can read the secret in it; run: chmod 600"), finding)
        XCTAssertFalse(result.stdout.contains("horse"))

        XCTAssertEqual(chmod(passphrase.path, 0o600), 0)
        let fixed = try doctor(["--no-clock"], environment: environment)
        XCTAssertEqual(fixed.status, 0, fixed.stdout)
        XCTAssertTrue(line(fixed, check: "passphrase_file")?.hasPrefix("ok") == true, fixed.stdout)
    }

    func testJSONShape() throws {
        try add("alice", issuer: "GitHub")
        let result = try doctor(["--server", try timeServer(.skewed(seconds: 300)), "--json"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let object = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["findings", "clock", "problems", "warnings"])
        XCTAssertEqual(object["problems"] as? Int, 1)
        XCTAssertNotNil(object["warnings"] as? Int)
        let findings = try XCTUnwrap(object["findings"] as? [[String: Any]])
        XCTAssertEqual(
            findings.map { $0["check"] as? String },
            ["clock", "permissions", "passphrase", "clipboard", "sync", "completion"])
        for finding in findings {
            XCTAssertEqual(Set(finding.keys), ["check", "status", "message", "advice"])
            XCTAssertTrue(["ok", "warning", "problem"].contains(finding["status"] as? String ?? ""), "\(finding)")
            XCTAssertNotNil(finding["message"] as? String)
            XCTAssertTrue(finding["advice"] is String || finding["advice"] is NSNull)
        }
        XCTAssertEqual(findings[0]["status"] as? String, "problem")
        XCTAssertNotNil(findings[0]["advice"] as? String)
        let clock = try XCTUnwrap(object["clock"] as? [String: Any])
        XCTAssertEqual(Set(clock.keys), ["server", "address", "offset_seconds", "delay_seconds", "stratum"])
        XCTAssertEqual(try XCTUnwrap(clock["offset_seconds"] as? Double), 300, accuracy: 1)
        XCTAssertEqual(clock["address"] as? String, "127.0.0.1")
        XCTAssertEqual(clock["stratum"] as? Int, 2)
    }

    func testASilentServerIsAWarningWithinTheTimeout() throws {
        try add("alice", issuer: "GitHub")
        let result = try doctor(["--server", try timeServer(.silent), "--timeout", "0.5"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let clock = try XCTUnwrap(line(result, check: "clock"), result.stdout)
        XCTAssertTrue(clock.hasPrefix("warning  clock"), clock)
        XCTAssertTrue(clock.contains("no answer from the time server 127.0.0.1:"), clock)
        XCTAssertTrue(clock.contains("authcat doctor --server HOST"), clock)
        // It gave up at the deadline it was given, not at the default of 3 s.
        XCTAssertTrue(clock.contains("within 0.5 s"), clock)
        let json = try doctor(["--server", try timeServer(.silent), "--timeout", "0.2", "--json"])
        let object = try XCTUnwrap(try json.json() as? [String: Any])
        XCTAssertTrue(object["clock"] is NSNull)
    }

    func testNoVaultIsNeitherCreatedNorAProblem() throws {
        let result = try doctor(["--no-clock"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: authcat.home.path), "doctor created the vault folder")
        XCTAssertTrue(line(result, check: "passphrase")?.contains("no vault yet") == true, result.stdout)
    }

    func testAMissingKeyFileIsAProblem() throws {
        try add("alice", issuer: "GitHub")
        try FileManager.default.removeItem(at: authcat.keyFileURL)
        let result = try doctor(["--no-clock"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(line(result, check: "passphrase")?.hasPrefix("problem") == true, result.stdout)
    }

    func testPassphraseAndUnlockAreReportedWithoutAsking() throws {
        try add("alice", issuer: "GitHub")
        let file = authcat.root.appendingPathComponent("passphrase")
        try Data("correct horse\n".utf8).write(to: file)
        try succeed(["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": file.path])
        defer { _ = try? authcat.run(["lock"]) }
        let locked = try doctor(["--no-clock"])
        XCTAssertEqual(locked.status, 0, locked.stdout + locked.stderr)
        XCTAssertEqual(
            line(locked, check: "passphrase"),
            "ok  passphrase  the vault key is protected by a passphrase; locked")
        try succeed(["unlock", "--for", "10m"], environment: ["AUTHCAT_PASSPHRASE_FILE": file.path])
        let unlocked = try doctor(["--no-clock"])
        XCTAssertTrue(
            line(unlocked, check: "passphrase")?.contains("protected by a passphrase; unlocked until") == true,
            unlocked.stdout)
        XCTAssertTrue(line(unlocked, check: "passphrase")?.hasSuffix("'authcat lock' when you step away") == true)
    }

    func testLostSyncStateIsAProblem() throws {
        try add("alice", issuer: "GitHub")
        let passphrase = authcat.root.appendingPathComponent("sync-passphrase")
        try Data("correct horse battery staple\n".utf8).write(to: passphrase)
        let remote = "file://" + authcat.root.appendingPathComponent("remote").path
        try succeed(
            ["sync", "enable", "--remote", remote], environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": passphrase.path])
        let synced = try doctor(["--no-clock"])
        XCTAssertEqual(synced.status, 0, synced.stdout + synced.stderr)
        XCTAssertEqual(line(synced, check: "sync")?.hasPrefix("ok  sync  succeeded"), true, synced.stdout)

        try FileManager.default.removeItem(at: authcat.home.appendingPathComponent("sync.sqlite"))
        let lost = try doctor(["--no-clock"])
        XCTAssertEqual(lost.status, 1, lost.stdout + lost.stderr)
        let finding = try XCTUnwrap(line(lost, check: "sync"), lost.stdout)
        XCTAssertTrue(finding.hasPrefix("problem  sync  error: "), finding)
        XCTAssertTrue(finding.contains("run 'authcat sync disable', then"), "the lost state's own step: \(finding)")
        XCTAssertEqual(
            finding.components(separatedBy: "authcat sync disable").count, 2, "the step is worded once: \(finding)")
    }

    func testInstalledCompletionIsFound() throws {
        let home = try XCTUnwrap(authcat.environment["HOME"])
        let missing = try doctor(["--no-clock"], environment: ["SHELL": "/bin/bash"])
        XCTAssertTrue(line(missing, check: "completion")?.hasPrefix("warning") == true, missing.stdout)
        XCTAssertEqual(missing.status, 0, "a warning alone")
        let folder = URL(fileURLWithPath: home).appendingPathComponent(".local/share/bash-completion/completions")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = try authcat.run(["--generate-completion-script", "bash"], withHome: false)
        try Data(script.stdout.utf8).write(to: folder.appendingPathComponent("authcat"))
        let installed = try doctor(["--no-clock"], environment: ["SHELL": "/bin/bash"])
        XCTAssertTrue(line(installed, check: "completion")?.hasPrefix("ok") == true, installed.stdout)
    }

    func testBadOptionsAreOneLineErrors() throws {
        assertOneLineError(try doctor(["--server", "a b"]), containing: "is not a server", status: 64)
        assertOneLineError(try doctor(["--server", "host:0"]), containing: "is not a server", status: 64)
        assertOneLineError(try doctor(["--timeout", "0"]), containing: "--timeout", status: 64)
        assertOneLineError(try doctor(["--no-clock", "--server", "x"]), status: 64)
    }
}
