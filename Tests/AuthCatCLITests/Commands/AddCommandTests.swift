import Foundation
import XCTest

final class AddCommandTests: AuthCatTestCase {
    func testAddReadsTheSecretFromStdinAndCreatesAPrivateVault() throws {
        let result = try authcat.run(
            ["add", "alice@example.com", "--issuer", "GitHub"],
            stdin: Data("gezd gnbv-gy3t qojq gezd gnbv gy3t qojq\n".utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("added GitHub:alice@example.com ("), result.stdout)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(try mode(authcat.home.path), 0o700)
        XCTAssertEqual(try mode(authcat.databaseURL.path), 0o600)
        XCTAssertEqual(try mode(authcat.keyFileURL.path), 0o600)
        XCTAssertEqual(
            try succeed(["code", "github", "--at", "59"]), "287082\n", "forgiving Base32 decodes to the RFC secret")
    }

    func testAddStoresEveryParameterAndTag() throws {
        try add(
            "ops", issuer: "Example", secret: Self.otherSecret,
            [
                "--type", "HOTP", "--algorithm", "sha256", "--digits", "8", "--counter", "7", "--tag", "work", "--tag",
                "aws",
                "--tag", "work", "--note", "the ops account",
            ])
        let account = try XCTUnwrap(try listedAccounts().first)
        XCTAssertEqual(account["type"] as? String, "hotp")
        XCTAssertEqual(account["algorithm"] as? String, "sha256")
        XCTAssertEqual(account["digits"] as? Int, 8)
        XCTAssertEqual(account["counter"] as? Int, 7)
        XCTAssertTrue(account["period"] is NSNull)
        XCTAssertEqual(account["tags"] as? [String], ["aws", "work"])
        XCTAssertTrue(try succeed(["show", "ops"]).contains("the ops account"))
    }

    func testAddTOTPWithPeriod() throws {
        try add("slow", ["--period", "60"])
        let account = try XCTUnwrap(try listedAccounts().first)
        XCTAssertEqual(account["period"] as? Int, 60)
        XCTAssertTrue(account["counter"] is NSNull)
        // T = floor(119 / 60) = 1, the same step as t = 59 with a 30-second period.
        XCTAssertEqual(try succeed(["code", "slow", "--at", "119"]), "287082\n")
    }

    func testAddURIReadsAnOTPAuthURIFromStdin() throws {
        let uri =
            "otpauth://totp/ACME%20Co:john@example.com?secret=\(Self.rfcSecret)&issuer=ACME%20Co&algorithm=SHA1&digits=6&period=30"
        let result = try authcat.run(["add", "--uri", "--tag", "imported"], stdin: Data((uri + "\n").utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("added ACME Co:john@example.com"), result.stdout)
        let account = try XCTUnwrap(try listedAccounts().first)
        XCTAssertEqual(account["issuer"] as? String, "ACME Co")
        XCTAssertEqual(account["tags"] as? [String], ["imported"])
        XCTAssertEqual(try succeed(["code", "acme", "--at", "59"]), "287082\n")
    }

    func testAddURIWithNameAndIssuerOverridesTheURI() throws {
        let uri = "otpauth://hotp/Old:old?secret=\(Self.rfcSecret)&counter=2"
        try succeed(["add", "new", "--issuer", "New", "--uri"], stdin: Data(uri.utf8))
        let account = try XCTUnwrap(try listedAccounts().first)
        XCTAssertEqual(account["issuer"] as? String, "New")
        XCTAssertEqual(account["name"] as? String, "new")
        XCTAssertEqual(account["counter"] as? Int, 2)
        XCTAssertEqual(try succeed(["code", "new"]), "359152\n")
    }

    func testAddURIRejectsCodeParameterOptions() throws {
        let result = try authcat.run(
            ["add", "--uri", "--digits", "8"], stdin: Data("otpauth://totp/a?secret=\(Self.rfcSecret)".utf8))
        assertOneLineError(result, containing: "--uri", status: 64)
        XCTAssertFalse(FileManager.default.fileExists(atPath: authcat.home.path))
    }

    func testShortSecretIsAddedWithAWarning() throws {
        let result = try authcat.run(["add", "weak"], stdin: Data("JBSWY3DP\n".utf8))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderrLines.count, 1)
        XCTAssertTrue(result.stderr.hasPrefix("authcat: warning: the secret is shorter than 80 bits"), result.stderr)
        XCTAssertEqual(try listedAccounts().count, 1)
    }

    func testDuplicateLabelIsRefusedIgnoringCase() throws {
        try add("alice", issuer: "GitHub")
        let before = try VaultSnapshot.take(authcat)
        let result = try authcat.run(["add", "ALICE", "--issuer", "github"], stdin: Data(Self.otherSecret.utf8))
        assertOneLineError(result, containing: "already exists", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
    }

    func testMissingNameIsAUsageError() throws {
        assertOneLineError(try authcat.run(["add"], stdin: Data(Self.rfcSecret.utf8)), containing: "NAME", status: 64)
    }

    func testBlankNameIsRefused() throws {
        assertOneLineError(
            try authcat.run(["add", "  "], stdin: Data(Self.rfcSecret.utf8)), containing: "name", status: 1)
    }

    func testCounterAndPeriodOnlyWhereTheyMeanSomething() throws {
        assertOneLineError(
            try authcat.run(["add", "x", "--counter", "3"], stdin: Data(Self.rfcSecret.utf8)),
            containing: "--counter", status: 64)
        assertOneLineError(
            try authcat.run(["add", "x", "--type", "hotp", "--period", "60"], stdin: Data(Self.rfcSecret.utf8)),
            containing: "--period", status: 64)
    }

    func testSecretAsAnArgumentIsRefusedWithoutEchoingIt() throws {
        let result = try authcat.run(["add", "alice", Self.rfcSecret])
        assertOneLineError(result, status: 64)
        XCTAssertFalse(result.stderr.contains(Self.rfcSecret), result.stderr)
        let asOptionValue = try authcat.run(["add", "--uri=otpauth://totp/a?secret=\(Self.rfcSecret)"])
        assertOneLineError(asOptionValue, status: 64)
        XCTAssertFalse(asOptionValue.stderr.contains(Self.rfcSecret), asOptionValue.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: authcat.home.path))
    }

    func testVaultFolderComesFromTheEnvironmentWithoutHome() throws {
        let fromVariable = authcat.root.appendingPathComponent("from-variable")
        try succeed(["add", "a", "--home", fromVariable.path], stdin: Data(Self.rfcSecret.utf8))
        let listed = try authcat.run(["list"], environment: ["AUTHCAT_HOME": fromVariable.path], withHome: false)
        XCTAssertEqual(listed.stdout, "a  totp  sha1  6 digits  30s\n")

        let xdg = authcat.root.appendingPathComponent("xdg")
        let viaXDG = try authcat.run(
            ["add", "b"], stdin: Data(Self.rfcSecret.utf8), environment: ["XDG_DATA_HOME": xdg.path], withHome: false)
        XCTAssertEqual(viaXDG.status, 0, viaXDG.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: xdg.appendingPathComponent("authcat/vault.sqlite").path))

        let viaHome = try authcat.run(["add", "c"], stdin: Data(Self.rfcSecret.utf8), withHome: false)
        XCTAssertEqual(viaHome.status, 0, viaHome.stderr)
        let userHome = try XCTUnwrap(authcat.environment["HOME"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: userHome + "/.local/share/authcat/vault.sqlite"))
    }

    func testWithoutAnyHomeTheVaultCannotBeFound() throws {
        let result = try authcat.run(["list"], environment: ["HOME": ""], withHome: false)
        assertOneLineError(result, containing: "AUTHCAT_HOME", status: 1)
    }

    func testHomeOptionWorksBeforeAndAfterTheSubcommand() throws {
        let elsewhere = authcat.root.appendingPathComponent("elsewhere").path
        try succeed(["add", "x", "--home", elsewhere], stdin: Data(Self.rfcSecret.utf8))
        let before = try authcat.run(["--home", elsewhere, "code", "x", "--at", "59"], withHome: false)
        XCTAssertEqual(before.stdout, "287082\n", before.stderr)
        let after = try authcat.run(["code", "x", "--at", "59", "--home", elsewhere], withHome: false)
        XCTAssertEqual(after.stdout, "287082\n", after.stderr)
    }

    /// A clash or a wrong passphrase is reported before the secret is asked for, so nothing is typed in vain.
    func testAddChecksTheNameAndThePassphraseBeforeAskingForTheSecret() throws {
        try add("alice", issuer: "GitHub")
        let clash = try authcat.runInTerminal(["add", "Alice", "--issuer", "github"])
        XCTAssertEqual(clash.status, 1, clash.stdout)
        XCTAssertTrue(clash.stdout.contains("GitHub:alice") || clash.stdout.contains("github:Alice"), clash.stdout)
        XCTAssertFalse(clash.stdout.contains("secret for"), "no secret was asked for: \(clash.stdout)")
        let passphrase = authcat.root.appendingPathComponent("passphrase")
        try Data("correct horse\n".utf8).write(to: passphrase)
        try succeed(["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": passphrase.path])
        let wrong = try authcat.runInTerminal(["add", "bob"], typing: Array(repeating: "wrong horse\n", count: 3))
        XCTAssertEqual(wrong.status, 1, wrong.stdout)
        XCTAssertTrue(wrong.stdout.contains("authcat passphrase: \nauthcat: wrong passphrase\n"), wrong.stdout)
        XCTAssertFalse(wrong.stdout.contains("secret for"), "no secret was asked for: \(wrong.stdout)")
    }

    private func mode(_ path: String) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) & 0o777
    }
}
