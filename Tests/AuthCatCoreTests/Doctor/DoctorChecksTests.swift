import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import XCTest

final class DoctorChecksTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder = nil
        super.tearDown()
    }

    private func file(_ name: String, mode: mode_t, in directory: URL? = nil) throws -> URL {
        let url = (directory ?? folder.url).appendingPathComponent(name)
        try Data("x\n".utf8).write(to: url)
        XCTAssertEqual(chmod(url.path, mode), 0)
        return url
    }

    private func vaultFolder(mode: mode_t = 0o700) throws -> VaultLocation {
        let url = folder.url("vault")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(url.path, mode), 0)
        return VaultLocation(folder: url)
    }

    // MARK: Clock

    private let server = SNTPServer(host: "127.0.0.1", port: 4123)

    private func clockFinding(offset: Double) -> DoctorFinding {
        DoctorChecks.clock(
            .success(SNTPMeasurement(offset: offset, delay: 0.01, stratum: 2, address: "127.0.0.1")),
            server: server)
    }

    func testClockWithinToleranceIsOK() {
        let finding = clockFinding(offset: 0.4)
        XCTAssertEqual(finding.status, .ok)
        XCTAssertEqual(finding.message, "this machine's clock is 0.4 s behind 127.0.0.1:4123")
        XCTAssertNil(finding.advice)
    }

    func testClockSomeSecondsOffIsAWarning() {
        let finding = clockFinding(offset: -6)
        XCTAssertEqual(finding.status, .warning)
        XCTAssertTrue(
            finding.message.hasPrefix("this machine's clock is 6.0 s ahead of 127.0.0.1:4123"), finding.message)
    }

    func testClockFarOffIsAProblemWithAdvice() {
        let finding = clockFinding(offset: 300.2)
        XCTAssertEqual(finding.status, .problem)
        XCTAssertTrue(finding.message.hasPrefix("this machine's clock is 300 s behind"), finding.message)
        XCTAssertTrue(finding.advice?.contains("timedatectl set-ntp true") == true)
    }

    func testNoAnswerIsAWarningNamingTheServerOption() {
        let finding = DoctorChecks.clock(.failure(.noAnswer("pool.ntp.org", seconds: 3)), server: .default)
        XCTAssertEqual(finding.status, .warning)
        XCTAssertEqual(finding.message, "not checked: no answer from the time server pool.ntp.org within 3 s")
        XCTAssertEqual(finding.advice, "check the network")
        XCTAssertEqual(finding.nextStep, .nameTimeServer, "authcat's own step is named, for the command line to word")
    }

    // MARK: Files

    func testPrivateVaultFolderIsOK() throws {
        let location = try vaultFolder()
        _ = try file("vault.sqlite", mode: 0o600, in: location.folder)
        _ = try file("vault.key", mode: 0o600, in: location.folder)
        let findings = DoctorChecks.permissions(in: location)
        XCTAssertEqual(findings.map(\.status), [.ok])
        XCTAssertTrue(findings[0].message.hasSuffix("and its 2 files are yours alone"), findings[0].message)
    }

    func testReadableFilesAndFolderAreProblems() throws {
        let location = try vaultFolder(mode: 0o755)
        let database = try file("vault.sqlite", mode: 0o644, in: location.folder)
        _ = try file("vault.key", mode: 0o600, in: location.folder)
        let events = try file("sync-events.log", mode: 0o666, in: location.folder)
        let findings = DoctorChecks.permissions(in: location)
        XCTAssertEqual(findings.map(\.status), [.problem, .problem, .problem])
        XCTAssertEqual(findings[0].message, "\(location.folder.path) has mode 755: others can read it")
        XCTAssertEqual(findings[0].advice, "run: chmod 700 \(location.folder.path)")
        XCTAssertEqual(findings[1].message, "\(events.path) has mode 666: others can change it")
        XCTAssertEqual(findings[2].message, "\(database.path) has mode 644: others can read it")
        XCTAssertEqual(findings[2].advice, "run: chmod 600 \(database.path)")
    }

    func testAnotherOwnerIsAProblem() throws {
        let location = try vaultFolder()
        _ = try file("vault.sqlite", mode: 0o600, in: location.folder)
        let findings = DoctorChecks.permissions(in: location, userID: getuid() + 1)
        XCTAssertEqual(findings.map(\.status), [.problem, .problem])
        XCTAssertEqual(
            findings[0].message,
            "\(location.folder.path) belongs to user \(getuid()), not you: "
                + "that user could swap the vault's files, so authcat refuses it")
        XCTAssertEqual(
            findings[0].advice,
            "if the vault is yours, run as root: chown -R \(getuid() + 1) \(location.folder.path); "
                + "else set AUTHCAT_HOME to a folder of your own")
    }

    func testAnEntryOfAnotherUserOfAnyKindIsAProblem() throws {
        guard geteuid() == 0 else {
            throw XCTSkip("giving a file to another user needs root (CI runs the tests as root)")
        }
        let location = try vaultFolder()
        _ = try file("vault.sqlite", mode: 0o600, in: location.folder)
        let link = location.folder.appendingPathComponent("vault.key").path
        XCTAssertEqual(symlink("/elsewhere/vault.key", link), 0)
        XCTAssertEqual(lchown(link, 4242, 4242), 0)
        let findings = DoctorChecks.permissions(in: location)
        XCTAssertEqual(findings.map(\.status), [.problem])
        XCTAssertTrue(findings[0].message.hasPrefix("\(link) belongs to user 4242, not you"), findings[0].message)
    }

    func testNoVaultFolderYetIsOK() {
        let findings = DoctorChecks.permissions(in: VaultLocation(folder: folder.url("none")))
        XCTAssertEqual(findings.map(\.status), [.ok])
    }

    func testPassphraseFile() throws {
        XCTAssertTrue(DoctorChecks.secretFiles(environment: [:], home: nil).isEmpty)
        let secret = try file("pass", mode: 0o600)
        func finding() -> DoctorFinding? {
            DoctorChecks.secretFiles(environment: ["AUTHCAT_PASSPHRASE_FILE": secret.path], home: nil).first
        }
        XCTAssertEqual(finding()?.status, .ok)
        XCTAssertEqual(finding()?.check, "passphrase_file")
        XCTAssertEqual(chmod(secret.path, 0o640), 0)
        let readable = try XCTUnwrap(finding())
        XCTAssertEqual(readable.status, .problem)
        XCTAssertEqual(
            readable.message,
            "\(secret.path) (AUTHCAT_PASSPHRASE_FILE) has mode 640: others can read the secret in it")
        XCTAssertFalse(readable.message.contains("x\n"), "never the passphrase")
        let missing = DoctorChecks.secretFiles(
            environment: ["AUTHCAT_PASSPHRASE_FILE": folder.url("gone").path], home: nil)
        XCTAssertEqual(missing.first?.status, .problem)
    }

    /// Every secret file the environment names, and ~/.netrc, as ssh checks a key (issue 33 §16).
    func testEverySecretFileTheEnvironmentNamesAndNetrc() throws {
        let home = folder.url("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let netrc = home.appendingPathComponent(".netrc")
        try Data("machine h login u password p\n".utf8).write(to: netrc)
        XCTAssertEqual(chmod(netrc.path, 0o644), 0)
        let sync = try file("sync-pass", mode: 0o604)
        let webdav = try file("webdav-pass", mode: 0o600)
        let findings = DoctorChecks.secretFiles(
            environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": sync.path, "AUTHCAT_WEBDAV_PASSWORD_FILE": webdav.path],
            home: home.path)
        XCTAssertEqual(findings.map(\.check), ["secret_file", "secret_file", "secret_file"])
        XCTAssertEqual(findings.map(\.status), [.problem, .ok, .problem])
        XCTAssertTrue(findings[0].message.contains("AUTHCAT_SYNC_PASSPHRASE_FILE"), findings[0].message)
        XCTAssertTrue(findings[2].message.contains(".netrc"), findings[2].message)
        XCTAssertEqual(findings[2].advice, "run: chmod 600 \(netrc.path)")
    }

    func testProtectionWithoutAVault() {
        let finding = DoctorChecks.protection(in: VaultLocation(folder: folder.url("none")))
        XCTAssertEqual(finding.status, .ok)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url("none").path), "nothing created")
    }

    // MARK: Report

    func testReportCountsAndExitStatus() throws {
        let warningOnly = DoctorReport(findings: [
            DoctorFinding("a", .ok, "fine"), DoctorFinding("b", .warning, "hm", advice: "do"),
        ])
        XCTAssertEqual(warningOnly.exitStatus, 0)
        let problem = DoctorReport(findings: [DoctorFinding("c", .problem, "bad", advice: "fix")])
        XCTAssertEqual(problem.exitStatus, 1)
    }

    func testReportJSONShape() throws {
        let measurement = SNTPMeasurement(offset: 300.12345, delay: 0.0004, stratum: 2, address: "127.0.0.1")
        let report = DoctorReport(
            findings: [DoctorFinding("clock", .problem, "off", advice: "fix"), DoctorFinding("x", .ok, "fine")],
            clock: .init(server: SNTPServer(host: "127.0.0.1", port: 9), measurement))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["findings", "clock", "problems", "warnings"])
        XCTAssertEqual(object["problems"] as? Int, 1)
        XCTAssertEqual(object["warnings"] as? Int, 0)
        let findings = try XCTUnwrap(object["findings"] as? [[String: Any]])
        XCTAssertEqual(Set(findings[1].keys), ["check", "status", "message", "advice"])
        XCTAssertTrue(findings[1]["advice"] is NSNull)
        XCTAssertEqual(findings[0]["status"] as? String, "problem")
        let clock = try XCTUnwrap(object["clock"] as? [String: Any])
        XCTAssertEqual(Set(clock.keys), ["server", "address", "offset_seconds", "delay_seconds", "stratum"])
        XCTAssertEqual(clock["offset_seconds"] as? Double, 300.123)
        XCTAssertEqual(clock["server"] as? String, "127.0.0.1:9")
    }

    func testAFollowedFileIsOKGoneFailingOrQuiet() throws {
        let path = folder.url.appendingPathComponent("aegis.json").path
        FileManager.default.createFile(atPath: path, contents: Data("{}".utf8))
        let now = Date(unixMilliseconds: 1_800_000_000_000)
        let day = 86_400.0
        var file = FollowedFile(
            id: UUID(), name: "phone", path: path, format: "aegis", hasPassword: false,
            addedAt: now.addingTimeInterval(-200 * day), changedAt: now.addingTimeInterval(-3 * day))
        XCTAssertEqual(DoctorChecks.followedFiles([file], now: now).map(\.status), [.ok])
        file.changedAt = now.addingTimeInterval(-Double(DoctorChecks.followedFileQuietDays) * day)
        let quiet = try XCTUnwrap(DoctorChecks.followedFiles([file], now: now).first)
        XCTAssertEqual(quiet.status, .warning)
        XCTAssertTrue(quiet.message.contains("has not changed for 90 days"), quiet.message)
        file.problem = "the file is not JSON"
        XCTAssertTrue(try XCTUnwrap(DoctorChecks.followedFiles([file], now: now).first).message.contains("not JSON"))
        file.path += ".gone"
        let gone = try XCTUnwrap(DoctorChecks.followedFiles([file], now: now).first)
        XCTAssertEqual(gone.status, .warning)
        XCTAssertTrue(gone.message.contains("is gone"), gone.message)
        XCTAssertEqual(gone.check, "followed_file")
    }
}
