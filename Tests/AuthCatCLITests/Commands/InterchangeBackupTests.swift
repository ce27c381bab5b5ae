import AuthCatInterchange
import AuthCatTesting
import Foundation
import XCTest

final class InterchangeBackupTests: InterchangeTests {
    private var passphrase: [String: String] = [:]

    override func setUpWithError() throws {
        try super.setUpWithError()
        try succeed(["import", fixture("aegis_plain.json")])
        try succeed(["config", "set", "--synced", "user.grouping", "issuer"])
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
        XCTAssertEqual(
            try succeed(["backup", "--verify", path], environment: passphrase),
            "\(path): valid backup of 6 accounts, 1 synced preference, 2 history transactions\n")

        let home = otherHome()
        let restored = try authcat.run(
            ["--home", home, "restore-backup", path], environment: passphrase, withHome: false)
        XCTAssertEqual(restored.status, 0, restored.stderr)
        XCTAssertEqual(
            restored.stdout, "restored 6 accounts from the backup and 1 synced preference; skipped 0, rejected 0\n")
        XCTAssertEqual(try accountsWithoutIDs(home: home), try accountsWithoutIDs(home: authcat.home.path))
        XCTAssertEqual(try uris(home: home), try uris(home: authcat.home.path))
        let ids = { (home: String) in try self.authcat.run(["--home", home, "list", "--json"], withHome: false).stdout }
        XCTAssertEqual(try ids(home), try ids(authcat.home.path), "ids and times come back too")
        let preference = try authcat.run(
            ["--home", home, "config", "get", "--synced", "user.grouping"], withHome: false)
        XCTAssertEqual(preference.stdout, "issuer\n")

        XCTAssertEqual(
            restored.stderr, "authcat: warning: the new vault has no passphrase; 'authcat passphrase set' protects it\n"
        )
        let again = try authcat.run(
            ["--home", home, "restore-backup", path, "--verbose"], environment: passphrase, withHome: false)
        XCTAssertTrue(
            again.stdout.hasPrefix("restored 0 accounts from the backup; skipped 6, rejected 0\n"), again.stdout)
        XCTAssertEqual(again.stderr, "", "the warning is for the restore that created the vault")
        XCTAssertTrue(
            again.stdout.contains("  skipped  account 1 (Example:sha512): already in the vault"), again.stdout)
    }

    func testWrongPassphraseTruncationAndTamperingChangeNothing() throws {
        let path = try backup()
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try succeed(["add", "local"], stdin: Data(Self.rfcSecret.utf8))
        let before = try VaultSnapshot.take(authcat)
        let wrong = ["AUTHCAT_BACKUP_PASSPHRASE_FILE": try scratch("wrong", "not it\n")]
        assertOneLineError(
            try authcat.run(["restore-backup", path], environment: wrong),
            containing: "wrong passphrase, or the file was altered")
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
            assertOneLineError(
                try authcat.run(["restore-backup", file], environment: passphrase), containing: message, status: 1)
            assertOneLineError(
                try authcat.run(["backup", "--verify", file], environment: passphrase), containing: message, status: 1)
        }
        assertOneLineError(
            try authcat.run(["restore-backup", fixture("aegis_plain.json")], environment: passphrase),
            containing: "content is invalid", status: 1)
        XCTAssertEqual(try VaultSnapshot.take(authcat), before)
    }

    func testScriptsGetNoPromptAndNoPartialFile() throws {
        let target = authcat.root.appendingPathComponent("nightly.authcat")
        assertOneLineError(
            try authcat.run(["backup", "--output", target.path]), containing: "AUTHCAT_BACKUP_PASSPHRASE_FILE",
            status: 1)
        assertOneLineError(
            try authcat.run(
                ["backup", "--output", "/nonexistent-dir/b.authcat", "--kdf", "interactive"], environment: passphrase),
            containing: "cannot write", status: 1)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: authcat.root.path).filter {
            $0.contains("nightly")
        }
        XCTAssertEqual(leftovers, [], "nothing is left behind by a failed backup")
        let result = try authcat.run(
            ["backup", "--output", target.path, "--kdf", "interactive", "--json"], environment: passphrase)
        XCTAssertEqual(result.status, 0, result.stderr)
        let summary = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(summary["accounts"] as? Int, 6)
        XCTAssertEqual(summary["output"] as? String, target.path)
        let verify = try XCTUnwrap(
            JSONSerialization.jsonObject(
                with: Data(try succeed(["backup", "--verify", target.path, "--json"], environment: passphrase).utf8))
                as? [String: Any])
        XCTAssertEqual(verify["valid"] as? Bool, true)
        XCTAssertEqual(verify["accounts"] as? Int, 6)
    }

    func testBackupThroughAPipe() throws {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        let binary = AuthCatRunner.executableURL.path
        shell.arguments = [
            "-c",
            "\"$1\" --home \"$2\" backup --output - --kdf interactive | \"$1\" --home \"$3\" restore-backup - --json",
            "sh", binary, authcat.home.path, otherHome(),
        ]
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
        // Asked again after each slip, three times in all.
        let differ = try authcat.runInTerminal(
            ["backup", "--output", path, "--kdf", "interactive"],
            typing: Array(repeating: ["one two three\n", "two three four\n"], count: 3).flatMap { $0 })
        XCTAssertEqual(differ.status, 1)
        XCTAssertTrue(
            differ.stdout.contains("authcat: warning: the two passphrases differ; try again (2 tries left)"),
            differ.stdout)
        XCTAssertTrue(differ.stdout.contains("authcat: the two passphrases differ"), differ.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        let typed = try authcat.runInTerminal(
            ["backup", "--output", path, "--kdf", "interactive"], typing: ["same words\n", "same words\n"])
        XCTAssertEqual(typed.status, 0, typed.stdout)
        XCTAssertTrue(typed.stdout.contains("backup passphrase (at least 8 characters): "), typed.stdout)
        XCTAssertFalse(typed.stdout.contains("same words"), "the passphrase was echoed")
        let verified = try authcat.run(
            ["backup", "--verify", path],
            environment: ["AUTHCAT_BACKUP_PASSPHRASE_FILE": try scratch("typed-pass", "same words\n")])
        XCTAssertEqual(verified.status, 0, verified.stderr)
        let binary = try authcat.runInTerminal(["backup", "--output", "-"], environment: passphrase)
        XCTAssertEqual(binary.status, 64)
        XCTAssertTrue(binary.stdout.contains("refusing to write a binary backup to the terminal"), binary.stdout)
    }
}

// MARK: - Rotation (--output-dir, --keep)

final class BackupRotationCommandTests: InterchangeTests {
    private var passphrase: [String: String] = [:]
    private var folder = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        _ = try succeed(["import", fixture("aegis_plain.json")])
        passphrase = ["AUTHCAT_BACKUP_PASSPHRASE_FILE": try scratch("backup-pass", "backup passphrase\n")]
        folder = authcat.root.appendingPathComponent("backups").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    }

    private func rotate(_ folder: String, keep: Int?) throws -> AuthCatResult {
        try authcat.run(
            ["backup", "--output-dir", folder, "--kdf", "interactive", "--json"]
                + (keep.map { ["--keep", "\($0)"] } ?? []),
            environment: passphrase)
    }

    private func names(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    /// Old backups with names from the past, holding a real backup's bytes.
    private func seedOldBackups(in folder: String, days: [Int]) throws -> [String] {
        let real = authcat.root.appendingPathComponent("seed.authcat").path
        if !FileManager.default.fileExists(atPath: real) {
            _ = try succeed(["backup", "--output", real, "--kdf", "interactive"], environment: passphrase)
        }
        return try days.map { day in
            let name = String(format: "authcat-backup-202001%02d-120000.authcat", day)
            try FileManager.default.copyItem(atPath: real, toPath: "\(folder)/\(name)")
            return name
        }
    }

    func testRotationKeepsNAndNeverTouchesOtherFiles() throws {
        let old = try seedOldBackups(in: folder, days: [1, 2, 3])
        let foreign = ["notes.txt", "authcat-backup-mine.authcat", "authcat-backup-20200101-120000.authcat.bak"]
        for name in foreign { try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(folder)/\(name)")) }

        let first = try rotate(folder, keep: 2)
        XCTAssertEqual(first.status, 0, first.stderr)
        let summary = try XCTUnwrap(try first.json() as? [String: Any])
        let output = try XCTUnwrap(summary["output"] as? String)
        XCTAssertEqual(summary["verified"] as? Bool, true)
        XCTAssertEqual(summary["deleted"] as? [String], [old[0], old[1]].map { "\(folder)/\($0)" })
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(try names(folder), (foreign + [old[2], (output as NSString).lastPathComponent]).sorted())
        XCTAssertTrue(
            try succeed(["backup", "--verify", output], environment: passphrase).hasPrefix(
                "\(output): valid backup of "))

        // Twice in the same second: a new name, never an overwrite; keep 1 keeps the newest.
        let second = try rotate(folder, keep: 1)
        XCTAssertEqual(second.status, 0, second.stderr)
        let newest = try XCTUnwrap(try second.json() as? [String: Any])["output"] as? String
        XCTAssertNotEqual(newest, output)
        XCTAssertEqual(try names(folder), (foreign + [(try XCTUnwrap(newest) as NSString).lastPathComponent]).sorted())
        for name in foreign {
            XCTAssertEqual(try String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8), "mine", name)
        }

        // Without --keep, nothing is deleted.
        let third = try rotate(folder, keep: nil)
        XCTAssertEqual(third.status, 0, third.stderr)
        XCTAssertEqual(try names(folder).count, foreign.count + 2)
    }

    func testBadOptionsAreRefused() throws {
        assertOneLineError(try rotate(folder, keep: 0), containing: "--keep must be at least 1", status: 64)
        assertOneLineError(
            try authcat.run(["backup", "--keep", "2"], environment: passphrase), containing: "add --output-dir",
            status: 64)
        assertOneLineError(
            try authcat.run(["backup", "--output-dir", folder, "--output", "x.authcat"], environment: passphrase),
            containing: "--output-dir", status: 64)
        assertOneLineError(try rotate(folder + "/missing", keep: 1), containing: "does not exist", status: 1)
        XCTAssertEqual(try names(folder), [])
    }

    func testAFailedWriteDeletesNothing() throws {
        let disk = authcat.root.appendingPathComponent("small-disk").path
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        guard getuid() == 0, exitStatus("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", disk]) == 0 else {
            throw XCTSkip("mounting a small tmpfs needs root")
        }
        defer { _ = exitStatus("/bin/umount", [disk]) }
        let old = try seedOldBackups(in: disk, days: [1, 2])
        try Data("mine".utf8).write(to: URL(fileURLWithPath: "\(disk)/notes.txt"))
        _ = exitStatus("/bin/dd", ["if=/dev/zero", "of=\(disk)/filler", "bs=4096"])
        assertOneLineError(try rotate(disk, keep: 1), containing: "the disk is full", status: 1)
        XCTAssertEqual(try names(disk), (old + ["filler", "notes.txt"]).sorted(), "no new file, no old backup deleted")

        // Read-only: root ignores permission bits, so the file system itself is made read-only.
        try FileManager.default.removeItem(atPath: "\(disk)/filler")
        XCTAssertEqual(exitStatus("/bin/mount", ["-o", "remount,ro", disk]), 0)
        assertOneLineError(try rotate(disk, keep: 1), containing: "read-only", status: 1)
        XCTAssertEqual(try names(disk), (old + ["notes.txt"]).sorted())
    }

    /// A FIFO, a folder or a link to a missing file at a dated name takes
    /// it: a rotation writes only new files in its folder, so it never waits
    /// on a FIFO, never writes where a link leads, and never counts what a
    /// FIFO hands back as the backup that lets it prune the old ones.
    func testWhatSitsAtADatedNameIsPassedOver() throws {
        let old = try seedOldBackups(in: folder, days: [1, 2])
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let fifo = "\(folder)/\(BackupRotation.fileName(at: now))"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let taken = "\(folder)/\(BackupRotation.fileName(at: now, sequence: 2))"
        try FileManager.default.createDirectory(atPath: taken, withIntermediateDirectories: false)
        let elsewhere = authcat.root.appendingPathComponent("elsewhere.authcat").path
        let link = "\(folder)/\(BackupRotation.fileName(at: now, sequence: 3))"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: elsewhere)

        let result = try authcat.run(
            ["backup", "--output-dir", folder, "--kdf", "interactive", "--keep", "1", "--json"],
            environment: passphrase, timeout: 30, clock: ManualClock(now))
        XCTAssertEqual(result.status, 0, result.stderr)
        let written = BackupRotation.fileName(at: now, sequence: 4)
        XCTAssertEqual(
            try names(folder), [written, fifo, taken, link].map { ($0 as NSString).lastPathComponent }.sorted(),
            "the backup went to the next free name, the old ones beyond --keep went, the FIFO, folder and link stay")
        XCTAssertFalse(FileManager.default.fileExists(atPath: elsewhere), "nothing was written where the link leads")
        XCTAssertTrue(
            try old.allSatisfy { !(try names(folder)).contains($0) }, "the old backups beyond --keep were deleted")
        _ = try succeed(["backup", "--verify", "\(folder)/\(written)"], environment: passphrase)
    }
}
