import Foundation
import XCTest

/// What authcat does when a person sits at a terminal: prompts on /dev/tty
/// with echo off, confirmations, and friendlier output.
final class TerminalTests: AuthCatTestCase {
    func testTheSecretIsAskedForWithoutEcho() throws {
        let result = try authcat.runInTerminal(["add", "alice", "--issuer", "GitHub"], typing: [Self.rfcSecret + "\n"])
        XCTAssertEqual(result.status, 0, result.stdout)
        XCTAssertTrue(result.stdout.hasPrefix("secret for GitHub:alice (Base32): "), result.stdout)
        XCTAssertFalse(result.stdout.contains(Self.rfcSecret), "the typed secret was echoed")
        XCTAssertTrue(result.stdout.contains("added GitHub:alice ("), result.stdout)
        XCTAssertEqual(try succeed(["code", "github", "--at", "59"]), "287082\n")
    }

    func testCodeOnATerminalShowsTheLabelAndSecondsLeft() throws {
        try add("alice", issuer: "GitHub")
        try add("counter", ["--type", "hotp"])
        XCTAssertEqual(
            try authcat.runInTerminal(["code", "github", "--at", "45"]).stdout, "287082  GitHub:alice  15s left\n")
        XCTAssertEqual(try authcat.runInTerminal(["code", "counter"]).stdout, "755224  counter  hotp\n")
        XCTAssertEqual(
            try authcat.runInTerminal(["code", "--at", "59"]).stdout,
            "-       counter       hotp: ask by name\n287082  GitHub:alice  1s left\n")
    }

    /// A secret typed wrong is asked for again; a pasted URI points to --uri.
    func testAMistypedSecretIsAskedForAgain() throws {
        let uri = "otpauth://totp/GitHub:alice?secret=\(Self.rfcSecret)"
        let result = try authcat.runInTerminal(
            ["add", "alice", "--issuer", "GitHub"],
            typing: ["not base32!\n", uri + "\n", Self.rfcSecret + "\n"])
        XCTAssertEqual(result.status, 0, result.stdout)
        XCTAssertTrue(result.stdout.contains("authcat: warning: the secret has an invalid character"), result.stdout)
        XCTAssertTrue(result.stdout.contains("run the same command with --uri; try again (1 try left)"), result.stdout)
        XCTAssertFalse(result.stdout.contains(Self.rfcSecret), "neither the secret nor the URI is echoed")
        XCTAssertEqual(try succeed(["code", "github", "--at", "59"]), "287082\n")
    }

    /// On a terminal a copy that worked says so, on standard error; piped, the code stays alone.
    func testACopyThatWorkedSaysSoOnATerminal() throws {
        try add("alice", issuer: "GitHub")
        let bin = authcat.root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let tool = bin.appendingPathComponent("xclip")
        try "#!/bin/sh\ncat > /dev/null\n".write(to: tool, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(tool.path, 0o755), 0)
        let environment = ["PATH": "\(bin.path):/usr/bin:/bin", "DISPLAY": ":99"]
        let copied = try authcat.runInTerminal(
            ["code", "github", "--at", "45", "--copy", "--keep"], environment: environment)
        XCTAssertEqual(copied.status, 0, copied.stdout)
        XCTAssertEqual(
            copied.stdout, "287082  GitHub:alice  15s left\nauthcat: copied to the clipboard; it stays there (--keep)\n"
        )
        let piped = try authcat.run(["code", "github", "--at", "45", "--copy", "--keep"], environment: environment)
        XCTAssertEqual(piped.stdout, "287082\n")
        XCTAssertEqual(piped.stderr, "")
    }

    func testRemoveAsksFirstOnATerminal() throws {
        try add("alice", issuer: "GitHub")
        let declined = try authcat.runInTerminal(["rm", "github"], typing: ["n\n"])
        XCTAssertEqual(declined.status, 1)
        XCTAssertEqual(declined.stdout, "remove GitHub:alice? [y/N] n\nauthcat: kept GitHub:alice\n")
        XCTAssertEqual(try listedAccounts().count, 1)
        let accepted = try authcat.runInTerminal(["rm", "github"], typing: ["yes\n"])
        XCTAssertEqual(accepted.status, 0, accepted.stdout)
        XCTAssertEqual(try listedAccounts().count, 0)
    }

    func testPassphrasesAreTypedTwiceWithoutEcho() throws {
        try add("alice")
        // A slip is asked again, three times in all, and then ends the command.
        let short = try authcat.runInTerminal(["passphrase", "set"], typing: ["hunter2\n", "hunter3\n", "hunter4\n"])
        XCTAssertEqual(short.status, 1)
        XCTAssertTrue(
            short.stdout.contains(
                "new passphrase (at least 8 characters): \nauthcat: warning: the new passphrase must "
                    + "be at least 8 characters long; try again (2 tries left)\n"),
            "the rule is said before typing and checked on the first entry: \(short.stdout)")
        XCTAssertTrue(short.stdout.contains("try again (1 try left)\n"), short.stdout)
        XCTAssertTrue(
            short.stdout.hasSuffix(
                "\nauthcat: the new passphrase must be at least 8 characters long; nothing was changed\n"),
            short.stdout)
        let differ = try authcat.runInTerminal(
            ["passphrase", "set"],
            typing: ["one two three\n", "two three four\n", "one two three\n", "one two three\n"])
        XCTAssertEqual(differ.status, 0, differ.stdout)
        XCTAssertTrue(
            differ.stdout.contains("authcat: warning: the two passphrases differ; try again (2 tries left)"),
            differ.stdout)
        try succeed(
            ["passphrase", "remove"], environment: ["AUTHCAT_PASSPHRASE_FILE": try passphraseFile("one two three")])
        let set = try authcat.runInTerminal(["passphrase", "set"], typing: ["hunter22\n", "hunter22\n"])
        XCTAssertEqual(set.status, 0, set.stdout)
        XCTAssertTrue(
            set.stdout.contains("new passphrase (at least 8 characters): \nnew passphrase again: \n"), set.stdout)
        XCTAssertFalse(set.stdout.contains("hunter22"))
        let code = try authcat.runInTerminal(["code", "alice", "--at", "59", "--json"], typing: ["hunter22\n"])
        XCTAssertEqual(code.status, 0, code.stdout)
        XCTAssertTrue(code.stdout.hasPrefix("authcat passphrase: \n"), code.stdout)
        XCTAssertTrue(code.stdout.contains("\"code\" : \"287082\""), code.stdout)
        // A mistyped passphrase is asked for again, three times in all.
        let retyped = try authcat.runInTerminal(["code", "alice", "--at", "59"], typing: ["hunter2\n", "hunter22\n"])
        XCTAssertEqual(retyped.status, 0, retyped.stdout)
        XCTAssertTrue(
            retyped.stdout.contains(
                "authcat: warning: wrong passphrase; try again (2 tries left)\nauthcat passphrase: "),
            retyped.stdout)
        XCTAssertTrue(retyped.stdout.hasSuffix("287082  alice  1s left\n"), retyped.stdout)
        let wrong = try authcat.runInTerminal(["code", "alice"], typing: ["hunter2\n", "hunter3\n", "hunter4\n"])
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.stdout.contains("try again (1 try left)"), wrong.stdout)
        XCTAssertTrue(wrong.stdout.hasSuffix("authcat: wrong passphrase\n"), wrong.stdout)
    }

    /// With a passphrase on the vault, `rm` asks for it before its [y/N]: a
    /// user who types the passphrase as every command asks for it first never
    /// types it at the question, where it would be echoed (issue 33 §6).
    func testRemoveAsksForThePassphraseBeforeTheQuestion() throws {
        try add("alice", issuer: "GitHub")
        try succeed(
            ["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": try passphraseFile("hunter22")])
        let removed = try authcat.runInTerminal(["rm", "github"], typing: ["hunter22\n", "y\n"])
        XCTAssertEqual(removed.status, 0, removed.stdout)
        XCTAssertTrue(
            removed.stdout.hasPrefix("authcat passphrase: \nremove GitHub:alice? [y/N] y\n"),
            "the secret first, then the question: \(removed.stdout)")
        XCTAssertFalse(removed.stdout.contains("hunter22"), removed.stdout)
    }

    /// An answer to a [y/N] that is neither is a typo, asked again as every
    /// typed answer is; it is never repeated, in case it was a passphrase (issue 33 §6).
    func testAConfirmationThatIsNeitherYesNorNoIsAskedAgain() throws {
        try add("alice", issuer: "GitHub")
        let removed = try authcat.runInTerminal(["rm", "github"], typing: ["yse\n", "y\n"])
        XCTAssertEqual(removed.status, 0, removed.stdout)
        XCTAssertTrue(
            removed.stdout.contains(
                "authcat: warning: the answer was neither y nor n; try again (2 tries left)\n"
                    + "remove GitHub:alice? [y/N] "), removed.stdout)
        XCTAssertEqual(try listedAccounts().count, 0)
        try add("bob")
        let kept = try authcat.runInTerminal(["rm", "bob"], typing: ["hunter22\n", "hunter22\n", "hunter22\n"])
        XCTAssertEqual(kept.status, 1, kept.stdout)
        XCTAssertTrue(
            kept.stdout.hasSuffix("authcat: the answer was neither y nor n; nothing was changed\n"), kept.stdout)
        XCTAssertEqual(try listedAccounts().count, 1, "kept")
    }

    /// A passphrase file others can read still works, with a warning that
    /// names it and the fix, as ssh warns of a key; never its contents (issue 33 §16).
    func testAPassphraseFileOthersCanReadIsWarnedAbout() throws {
        try add("alice")
        let file = try passphraseFile("hunter22")
        chmod(file, 0o644)
        try succeed(["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": file])
        let warned = try authcat.run(["code", "alice", "--at", "59"], environment: ["AUTHCAT_PASSPHRASE_FILE": file])
        XCTAssertEqual(warned.status, 0, warned.stderr)
        XCTAssertEqual(warned.stdout, "287082\n")
        XCTAssertEqual(
            warned.stderr,
            "authcat: warning: \(file) has mode 644: others can read the secret in it; run: chmod 600 \(file)\n")
        chmod(file, 0o600)
        let quiet = try authcat.run(["code", "alice", "--at", "59"], environment: ["AUTHCAT_PASSPHRASE_FILE": file])
        XCTAssertEqual(quiet.stderr, "", "a file of the user's alone is read without a word")
    }

    private func passphraseFile(_ passphrase: String) throws -> String {
        let file = authcat.root.appendingPathComponent("passphrase-\(UUID().uuidString)")
        try (passphrase + "\n").write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}
