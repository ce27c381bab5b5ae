import Foundation
import Synchronization
import XCTest

/// `authcat sync enable`: creating, joining with the passphrase or the recovery key, and refusals.
final class SyncEnableTests: SyncTestCase {
    func testThreeDevicesCreateJoinAndExchangeChanges() throws {
        let (first, second, third) = (try makeDevice(), try makeDevice(), try makeDevice())
        try add(first, "alice", issuer: "GitHub")
        let keyFile = scratch.appendingPathComponent("recovery-key")

        let created = try enable(first, ["--recovery-key-file", keyFile.path])
        XCTAssertTrue(created.contains("created a new remote vault"), created)
        XCTAssertTrue(created.contains("exported 1 change"), created)
        let recoveryKey = try String(contentsOf: keyFile, encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        XCTAssertFalse(recoveryKey.isEmpty)
        XCTAssertFalse(created.contains(recoveryKey), "a key written to a file is not printed too")
        XCTAssertEqual(SecureFileMode.of(keyFile.path), 0o600)

        let joined = try enable(second)
        XCTAssertTrue(joined.contains("joined the remote vault"), joined)
        XCTAssertTrue(joined.contains("imported 1 change"), joined)
        XCTAssertEqual(try labels(second), ["GitHub:alice"])

        // The recovery key joins without the passphrase.
        let viaRecoveryKey = try enable(
            third, ["--use-recovery-key", "--recovery-key-file", keyFile.path],
            environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": ""])
        XCTAssertTrue(viaRecoveryKey.contains("joined the remote vault"), viaRecoveryKey)
        XCTAssertEqual(try labels(third), ["GitHub:alice"])

        try add(third, "bob")
        try succeed(third, ["sync", "now"])
        try succeed(first, ["sync", "now"])
        try succeed(second, ["sync", "now"])
        XCTAssertEqual(try labels(first), ["Example:bob", "GitHub:alice"])
        XCTAssertEqual(try labels(second), ["Example:bob", "GitHub:alice"])
    }

    func testRecoveryKeyIsShownOnceAndAWrongPassphraseChangesNothing() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        let created = try enable(first)
        XCTAssertTrue(created.contains("recovery key (shown only now"), created)
        let before = remoteFiles()

        let wrong = scratch.appendingPathComponent("wrong-passphrase")
        try write("not the passphrase\n", to: wrong)
        try add(second, "carol")
        let result = try second.run(
            ["sync", "enable", "--remote", remoteURL], environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": wrong.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("wrong sync passphrase or recovery key"), result.stderr)
        XCTAssertFalse(result.stderr.contains("try again"), "a file would give the same line: \(result.stderr)")
        XCTAssertFalse(result.stderr.contains("not the passphrase"))
        XCTAssertEqual(remoteFiles(), before, "nothing was written to the remote")
        let (status, json) = try status(second, offline: true)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(json["summary"] as? String, "off")
        XCTAssertEqual((json["phases"] as? [String: [String: Any]])?["setup"]?["state"] as? String, "failed")
        XCTAssertEqual(try labels(second), ["Example:carol"], "local data untouched")
    }

    /// On a machine with no vault, a first `sync enable` that fails (a wrong
    /// passphrase, a remote that cannot be reached) leaves no vault behind:
    /// "nothing was changed" is true, in a folder made for it or one that was there.
    func testAFailedFirstEnableLeavesNoVaultBehind() throws {
        let first = try makeDevice()
        try enable(first)
        let wrong = scratch.appendingPathComponent("wrong-passphrase")
        try write("not the passphrase\n", to: wrong)
        let fresh = try makeDevice()
        let joining = try fresh.run(
            ["sync", "enable", "--remote", remoteURL], environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": wrong.path])
        XCTAssertEqual(joining.status, 1, joining.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh.home.path), "no vault folder is left")

        let existing = try makeDevice()
        try FileManager.default.createDirectory(at: existing.home, withIntermediateDirectories: true)
        try write("mine\n", to: existing.home.appendingPathComponent("notes.txt"))
        let unreachable = try existing.run(["sync", "enable", "--remote", "file:///nonexistent/\(UUID())/x/../y"])
        XCTAssertNotEqual(unreachable.status, 0, unreachable.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: existing.home.path), ["notes.txt"],
            "what was in the folder stays, and only that")
        try add(existing, "kept")
        XCTAssertEqual(try labels(existing), ["Example:kept"], "a vault made afterwards works")
    }

    func testEnableWithoutAPassphraseSourceOrTerminalFailsBeforeWriting() throws {
        let device = try makeDevice()
        let result = try device.run(
            ["sync", "enable", "--remote", remoteURL], environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": ""])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("AUTHCAT_SYNC_PASSPHRASE_FILE"), result.stderr)
        XCTAssertEqual(remoteFiles(), [])
        XCTAssertEqual(try status(device, offline: true).json["summary"] as? String, "off")
    }

    /// Typed on a terminal, the rule is in the prompt and checked on the first
    /// entry, before it is typed again; a short or mismatched new sync
    /// passphrase is asked for again, as every typed secret is, three times in
    /// all (issue 33 §6). Nothing reaches the remote until one is accepted.
    func testAShortOrMismatchedTypedPassphraseIsAskedForAgain() throws {
        let (refusing, device) = (try makeDevice(), try makeDevice())
        let refused = try refusing.runInTerminal(
            ["sync", "enable", "--remote", remoteURL], typing: ["y\n", "short\n", "short\n", "short\n"],
            environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": ""])
        XCTAssertEqual(refused.status, 1, refused.stdout)
        XCTAssertTrue(
            refused.stdout.hasSuffix(
                "authcat: the sync passphrase must be at least 8 characters long; nothing was changed\n"),
            refused.stdout)
        XCTAssertEqual(remoteFiles(), [])

        let passphrase = Self.passphrase + "\n"
        let result = try device.runInTerminal(
            ["sync", "enable", "--remote", remoteURL],
            typing: ["y\n", "short\n", passphrase, "typo " + passphrase, passphrase, passphrase],
            environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": ""])
        XCTAssertEqual(result.status, 0, result.stdout)
        XCTAssertTrue(
            result.stdout.contains(
                "new sync passphrase (at least 8 characters): \nauthcat: warning: the sync passphrase must be at "
                    + "least 8 characters long; try again (2 tries left)\nnew sync passphrase (at least 8 characters): "
            ), result.stdout)
        XCTAssertTrue(
            result.stdout.contains("authcat: warning: the two passphrases differ; try again (1 try left)\n"),
            result.stdout)
        XCTAssertTrue(result.stdout.contains("created a new remote vault"), result.stdout)
        XCTAssertFalse(result.stdout.contains(Self.passphrase), "never echoed")
    }

    /// A wrong sync passphrase typed to join is asked for again, outside the
    /// run lock, three times in all; the remote is untouched until the right
    /// one (issue 33 §6). From a file it is final at once (above).
    func testAWrongTypedSyncPassphraseAtJoinIsAskedForAgain() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try enable(first)
        let before = remoteFiles()
        let refused = try second.runInTerminal(
            ["sync", "enable", "--remote", remoteURL], typing: ["wrong one\n", "wrong two\n", "wrong three\n"],
            environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": ""])
        XCTAssertEqual(refused.status, 1, refused.stdout)
        XCTAssertEqual(refused.stdout.components(separatedBy: "sync passphrase: ").count - 1, 3, refused.stdout)
        XCTAssertTrue(
            refused.stdout.contains(
                "authcat: warning: wrong sync passphrase or recovery key; try again (2 tries left)\nsync passphrase: "),
            refused.stdout)
        XCTAssertTrue(refused.stdout.contains("try again (1 try left)"), refused.stdout)
        XCTAssertTrue(
            refused.stdout.hasSuffix("authcat: wrong sync passphrase or recovery key; nothing was changed\n"),
            refused.stdout)
        XCTAssertEqual(remoteFiles(), before, "nothing was written to the remote")

        let joined = try second.runInTerminal(
            ["sync", "enable", "--remote", remoteURL], typing: ["wrong one\n", Self.passphrase + "\n"],
            environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": ""])
        XCTAssertEqual(joined.status, 0, joined.stdout)
        XCTAssertTrue(joined.stdout.contains("try again (2 tries left)"), joined.stdout)
        XCTAssertTrue(joined.stdout.contains("joined the remote vault"), joined.stdout)
        XCTAssertEqual(try status(second, offline: true).json["summary"] as? String, "succeeded")
    }

    /// A mistyped location on a terminal finds no vault: creating a new one there is asked first,
    /// and a no leaves the remote untouched and sync off; a script is not asked.
    func testANewRemoteVaultIsConfirmedOnATerminal() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try enable(first)
        let typo = remoteURL + "-typo"
        let declined = try second.runInTerminal(
            ["sync", "enable", "--remote", typo], typing: ["n\n"],
            environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": ""])
        XCTAssertEqual(declined.status, 1, declined.stdout)
        XCTAssertTrue(declined.stdout.contains("no authcat vault was found at \(typo)"), declined.stdout)
        XCTAssertTrue(declined.stdout.contains("nothing was set up"), declined.stdout)
        XCTAssertFalse(declined.stdout.contains("passphrase (at least"), "no passphrase asked: \(declined.stdout)")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: remoteFolder.path + "-typo"), [],
            "no remote vault was made")
        XCTAssertEqual(try status(second, offline: true).json["summary"] as? String, "off")

        let joined = try second.runInTerminal(
            ["sync", "enable", "--remote", remoteURL], typing: [Self.passphrase + "\n"],
            environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": ""])
        XCTAssertEqual(joined.status, 0, joined.stdout)
        XCTAssertFalse(joined.stdout.contains("no authcat vault was found"), "joining is not asked: \(joined.stdout)")
    }

    /// A person may take their time at a prompt: meanwhile every other sync of
    /// the vault can take the run lock, as a second process does here.
    func testTheRunLockIsFreeWhileEnableAsksForThePassphrase() throws {
        let (first, second) = (try makeDevice(), try makeDevice())
        try enable(first)
        let lockPath = second.home.appendingPathComponent("sync-run.lock").path
        let freeAtPrompt = PromptObservations()
        let result = try second.runInTerminal(
            ["sync", "enable", "--remote", remoteURL], typing: [Self.passphrase + "\n"],
            environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": ""]
        ) { _ in
            freeAtPrompt.append(Self.runLockIsFree(at: lockPath))
        }
        XCTAssertEqual(result.status, 0, result.stdout)
        XCTAssertTrue(result.stdout.contains("sync passphrase"), "it prompted: \(result.stdout)")
        XCTAssertTrue(result.stdout.contains("joined the remote vault"), result.stdout)
        XCTAssertEqual(freeAtPrompt.all, [true], "the lock was free while the prompt waited")
    }

    /// Whether the run lock can be taken now, as another sync would take it.
    private static func runLockIsFree(at path: String) -> Bool {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return flock(fd, LOCK_EX | LOCK_NB) == 0
    }

    func testShortPassphraseIsRefused() throws {
        let device = try makeDevice()
        let short = scratch.appendingPathComponent("short")
        try write("abc\n", to: short)
        let result = try device.run(
            ["sync", "enable", "--remote", remoteURL], environment: ["AUTHCAT_SYNC_PASSPHRASE_FILE": short.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("at least 8 characters"), result.stderr)
        XCTAssertEqual(remoteFiles(), [])
    }

    func testRecoveryKeyCannotCreateARemoteVault() throws {
        let device = try makeDevice()
        let result = try device.run(["sync", "enable", "--remote", remoteURL, "--use-recovery-key"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("holds no vault to join"), result.stderr)
    }

    func testExistingRecoveryKeyFileIsNeverOverwritten() throws {
        let device = try makeDevice()
        let keyFile = scratch.appendingPathComponent("precious")
        try write("keep me\n", to: keyFile)
        let result = try device.run(["sync", "enable", "--remote", remoteURL, "--recovery-key-file", keyFile.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("already exists"), result.stderr)
        XCTAssertEqual(try String(contentsOf: keyFile, encoding: .utf8), "keep me\n")
        XCTAssertEqual(remoteFiles(), [], "refused before the remote vault was made")
    }

    func testInvalidRemoteIsRefused() throws {
        let device = try makeDevice()
        // A value --remote does not take is a usage error, like any other option's.
        let unsupported = try device.run(["sync", "enable", "--remote", "ftp://example.com/vault"])
        XCTAssertEqual(unsupported.status, 64)
        XCTAssertTrue(unsupported.stderr.contains("unsupported scheme"), unsupported.stderr)
        XCTAssertFalse(unsupported.stderr.contains("AWS"), unsupported.stderr)
        let withCredentials = try device.run(["sync", "enable", "--remote", "s3://key:secret@bucket/vault"])
        XCTAssertEqual(withCredentials.status, 64)
        XCTAssertFalse(withCredentials.stderr.contains("secret@"), withCredentials.stderr)
    }

    /// Plain http to another machine: asked on a terminal, `--allow-http` without one; loopback needs neither.
    func testAnHTTPEndpointOnAnotherMachineNeedsConfirmation() throws {
        let device = try makeDevice()
        let remote = "s3://authcat-test/vault?endpoint=http://0.0.0.0:1"
        let refused = try device.run(["sync", "enable", "--remote", remote])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(
            refused.stderr,
            "authcat: http://0.0.0.0:1 is plain http to another machine, where the synced objects "
                + "travel unencrypted and can be altered; use https, or without a terminal to confirm, add --allow-http\n"
        )
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: device.home.path), "refused before the vault was even made")

        let declined = try device.runInTerminal(["sync", "enable", "--remote", remote], typing: ["n\n"])
        XCTAssertEqual(declined.status, 1, declined.stdout)
        XCTAssertTrue(declined.stdout.contains("http://0.0.0.0:1 is plain http to another machine"), declined.stdout)
        XCTAssertTrue(declined.stdout.contains("authcat: sync was not turned on"), declined.stdout)

        // Allowed, it goes on to the server (here nothing listens) and fails there.
        let allowed = try device.run(
            ["sync", "enable", "--remote", remote, "--allow-http"],
            environment: ["AWS_ACCESS_KEY_ID": "AKIAAUTHCATTEST00000", "AWS_SECRET_ACCESS_KEY": "x"])
        XCTAssertNotEqual(allowed.status, 0)
        XCTAssertFalse(allowed.stderr.contains("plain http"), allowed.stderr)
        XCTAssertTrue(allowed.stderr.contains("cannot reach"), allowed.stderr)

        let loopback = try device.run(
            ["sync", "enable", "--remote", "s3://authcat-test/vault?endpoint=http://127.0.0.1:1"],
            environment: ["AWS_ACCESS_KEY_ID": "AKIAAUTHCATTEST00000", "AWS_SECRET_ACCESS_KEY": "x"])
        XCTAssertFalse(loopback.stderr.contains("plain http"), loopback.stderr)
    }

    func testEnablingAgainWithTheSameRemoteIsHarmlessAndAnotherIsRefused() throws {
        let device = try makeDevice()
        try enable(device)
        XCTAssertTrue(try enable(device).contains("already on"))
        let other = try device.run([
            "sync", "enable", "--remote", "file://" + scratch.appendingPathComponent("other").path,
        ])
        XCTAssertEqual(other.status, 1)
        XCTAssertTrue(other.stderr.contains("already on"), other.stderr)
    }
}

/// Permission bits of a file, for assertions.
enum SecureFileMode {
    static func of(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o777
    }
}

/// What a test saw at each prompt, written from the thread that types.
private final class PromptObservations: Sendable {
    private let seen = Mutex<[Bool]>([])

    func append(_ observation: Bool) {
        seen.withLock { $0.append(observation) }
    }

    var all: [Bool] { seen.withLock { $0 } }
}
