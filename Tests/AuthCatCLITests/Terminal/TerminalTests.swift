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
        XCTAssertEqual(try authcat.runInTerminal(["code", "github", "--at", "45"]).stdout, "287082  GitHub:alice  15s left\n")
        XCTAssertEqual(try authcat.runInTerminal(["code", "counter"]).stdout, "755224  counter  hotp\n")
        XCTAssertEqual(try authcat.runInTerminal(["code", "--at", "59"]).stdout,
                       "-       counter       hotp: ask by name\n287082  GitHub:alice  1s left\n")
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
        let short = try authcat.runInTerminal(["passphrase", "set"], typing: ["hunter2\n"])
        XCTAssertEqual(short.status, 1)
        XCTAssertTrue(short.stdout.contains("new passphrase (at least 8 characters): \nauthcat: the new passphrase must be at least 8 characters long"),
                      "the rule is said before typing and checked on the first entry: \(short.stdout)")
        let differ = try authcat.runInTerminal(["passphrase", "set"], typing: ["one two three\n", "two three four\n"])
        XCTAssertEqual(differ.status, 1)
        XCTAssertTrue(differ.stdout.contains("authcat: the two passphrases differ; nothing was changed"), differ.stdout)
        let set = try authcat.runInTerminal(["passphrase", "set"], typing: ["hunter22\n", "hunter22\n"])
        XCTAssertEqual(set.status, 0, set.stdout)
        XCTAssertTrue(set.stdout.contains("new passphrase (at least 8 characters): \nnew passphrase again: \n"), set.stdout)
        XCTAssertFalse(set.stdout.contains("hunter22"))
        let code = try authcat.runInTerminal(["code", "alice", "--at", "59", "--json"], typing: ["hunter22\n"])
        XCTAssertEqual(code.status, 0, code.stdout)
        XCTAssertTrue(code.stdout.hasPrefix("authcat passphrase: \n"), code.stdout)
        XCTAssertTrue(code.stdout.contains("\"code\" : \"287082\""), code.stdout)
        let wrong = try authcat.runInTerminal(["code", "alice"], typing: ["hunter2\n"])
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.stdout.hasSuffix("authcat: wrong passphrase; nothing was changed\n"), wrong.stdout)
    }
}
