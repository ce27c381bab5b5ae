import Foundation
import XCTest

final class InterchangeBackupTests: InterchangeTests {
    private var passphrase: [String: String] = [:]

    override func setUpWithError() throws {
        try super.setUpWithError()
        try succeed(["import", fixture("aegis_plain.json")])
        try succeed(["config", "set", "--synced", "display.grouping", "issuer"])
        passphrase = ["AUTHCAT_BACKUP_PASSPHRASE_FILE": try scratch("backup-pass", "backup passphrase\n")]
    }

    private func backup(_ extra: [String] = [], file: String = "vault.authcat") throws -> String {
        let path = authcat.root.appendingPathComponent(file).path
        try succeed(["backup", "--output", path, "--kdf", "interactive"] + extra, environment: passphrase)
        return path
    }

    func testBackupVerifyRestoreRoundTrip() throws {
        let path = try backup(["--with-history"])
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(8), Data("AUTHCATB".utf8))
        XCTAssertEqual(try succeed(["backup", "--verify", path], environment: passphrase),
                       "\(path): valid backup of 6 accounts, 1 synced preference, 2 history transactions\n")

        let home = otherHome()
        let restored = try authcat.run(["--home", home, "restore-backup", path], environment: passphrase, withHome: false)
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertEqual(restored.stdout, "restored 6 accounts from the backup and 1 synced preference; skipped 0, rejected 0\n")
        XCTAssertEqual(try accountsWithoutIDs(home: home), try accountsWithoutIDs(home: authcat.home.path))
        XCTAssertEqual(try uris(home: home), try uris(home: authcat.home.path))
        let ids = { (home: String) in try self.authcat.run(["--home", home, "list", "--json"], withHome: false).stdout }
        XCTAssertEqual(try ids(home), try ids(authcat.home.path), "ids and times come back too")
        let preference = try authcat.run(["--home", home, "config", "get", "--synced", "display.grouping"], withHome: false)
        XCTAssertEqual(preference.stdout, "issuer\n")

        let again = try authcat.run(["--home", home, "restore-backup", path], environment: passphrase, withHome: false)
        XCTAssertTrue(again.stdout.hasPrefix("restored 0 accounts from the backup; skipped 6, rejected 0\n"), again.stdout)
        XCTAssertTrue(again.stdout.contains("  skipped  account 1 (Example:sha512): already in the vault"), again.stdout)
    }

    func testWrongPassphraseTruncationAndTamperingChangeNothing() throws {
        let path = try backup()
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try succeed(["add", "local"], stdin: Data(Self.rfcSecret.utf8))
        let before = try VaultSnapshot.take(authcat)
        let wrong = ["AUTHCAT_BACKUP_PASSPHRASE_FILE": try scratch("wrong", "not it\n")]
        assertOneLineError(try authcat.run(["restore-backup", path], environment: wrong), containing: "wrong passphrase, or the file was altered")
        var tampered = data
        tampered[tampered.count - 5] ^= 1
        let cases: [(Data, String)] = [
            (data.prefix(data.count - 30), "the backup is incomplete"),
            (tampered, "wrong passphrase, or the file was altered"),
            (data + Data([1, 2, 3]), "extra bytes after its final chunk"),
            (Data("AUTHCATB".utf8), "the backup is incomplete"),
        ]
        for (index, (bytes, message)) in cases.enumerated() {
            let file = try scratch("bad\(index).authcat", bytes)
            assertOneLineError(try authcat.run(["restore-backup", file], environment: passphrase), containing: message, status: 1)
            assertOneLineError(try authcat.run(["backup", "--verify", file], environment: passphrase), containing: message, status: 1)
        }
        assertOneLineError(try authcat.run(["restore-backup", fixture("aegis_plain.json")], environment: passphrase),
                           containing: "content is invalid", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
    }

    func testScriptsGetNoPromptAndNoPartialFile() throws {
        let target = authcat.root.appendingPathComponent("nightly.authcat")
        assertOneLineError(try authcat.run(["backup", "--output", target.path]), containing: "AUTHCAT_BACKUP_PASSPHRASE_FILE", status: 1)
        assertOneLineError(try authcat.run(["backup", "--output", "/nonexistent-dir/b.authcat", "--kdf", "interactive"], environment: passphrase),
                           containing: "cannot write", status: 1)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: authcat.root.path).filter { $0.contains("nightly") }
        XCTAssertEqual(leftovers, [], "nothing is left behind by a failed backup")
        let result = try authcat.run(["backup", "--output", target.path, "--kdf", "interactive", "--json"], environment: passphrase)
        XCTAssertEqual(result.status, 0, result.stderr)
        let summary = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(summary["accounts"] as? Int, 6)
        XCTAssertEqual(summary["output"] as? String, target.path)
        let verify = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try succeed(["backup", "--verify", target.path, "--json"], environment: passphrase).utf8)) as? [String: Any])
        XCTAssertEqual(verify["valid"] as? Bool, true)
        XCTAssertEqual(verify["accounts"] as? Int, 6)
    }

    func testBackupThroughAPipe() throws {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        let binary = AuthCatProcess.executableURL.path
        shell.arguments = ["-c", "\"$1\" --home \"$2\" backup --output - --kdf interactive | \"$1\" --home \"$3\" restore-backup - --json",
                           "sh", binary, authcat.home.path, otherHome()]
        shell.environment = authcat.environment.merging(passphrase) { $1 }
        let output = Pipe()
        shell.standardOutput = output
        shell.standardError = FileHandle.nullDevice
        try shell.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationStatus, 0)
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(summary["added"] as? Int, 6)
        XCTAssertEqual(try accountsWithoutIDs(home: otherHome()), try accountsWithoutIDs(home: authcat.home.path))
    }

    func testOnATerminalThePassphraseIsTypedTwice() throws {
        let path = authcat.root.appendingPathComponent("typed.authcat").path
        let differ = try authcat.runInTerminal(["backup", "--output", path, "--kdf", "interactive"], typing: ["one\n", "two\n"])
        XCTAssertEqual(differ.status, 1)
        XCTAssertTrue(differ.stdout.contains("authcat: the two passphrases differ"), differ.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        let typed = try authcat.runInTerminal(["backup", "--output", path, "--kdf", "interactive"], typing: ["same words\n", "same words\n"])
        XCTAssertEqual(typed.status, 0, typed.stdout)
        XCTAssertTrue(typed.stdout.contains("backup passphrase: "), typed.stdout)
        XCTAssertFalse(typed.stdout.contains("same words"), "the passphrase was echoed")
        let verified = try authcat.run(["backup", "--verify", path], environment: ["AUTHCAT_BACKUP_PASSPHRASE_FILE": try scratch("typed-pass", "same words\n")])
        XCTAssertEqual(verified.status, 0, verified.stderr)
        let binary = try authcat.runInTerminal(["backup", "--output", "-"], environment: passphrase)
        XCTAssertEqual(binary.status, 64)
        XCTAssertTrue(binary.stdout.contains("refusing to write a binary backup to the terminal"), binary.stdout)
    }
}
