import ArgumentParser
import Foundation
import XCTest

@testable import AuthCatCommandLine

final class HelpTests: AuthCatTestCase {
    func testRootHelpNamesTheCommandsAndTheEnvironment() throws {
        let result = try authcat.run(["--help"], withHome: false)
        XCTAssertEqual(result.status, 0)
        for word in [
            "OVERVIEW:", "add", "code", "list", "show", "edit", "rm", "restore", "history", "passphrase",
            "AUTHCAT_HOME", "XDG_DATA_HOME", "AUTHCAT_PASSPHRASE_FILE", "AUTHCAT_NEW_PASSPHRASE_FILE", "--home",
        ] {
            XCTAssertTrue(result.stdout.contains(word), "root help lacks \(word)")
        }
    }

    func testEveryCommandHasAnAbstractADiscussionAndExamples() throws {
        let commands = [
            ["add"], ["code"], ["list"], ["show"], ["edit"], ["rm"], ["restore"], ["history"],
            ["passphrase"], ["passphrase", "set"], ["passphrase", "change"], ["passphrase", "remove"],
        ]
        for command in commands {
            let result = try authcat.run(command + ["--help"], withHome: false)
            XCTAssertEqual(result.status, 0, "\(command)")
            XCTAssertTrue(result.stdout.hasPrefix("OVERVIEW: "), "\(command)")
            XCTAssertTrue(result.stdout.contains("Examples:"), "\(command) help has no examples")
            XCTAssertTrue(result.stdout.contains("authcat \(command.joined(separator: " "))"), "\(command)")
            if command != ["passphrase"] {
                XCTAssertTrue(result.stdout.contains("--home"), "\(command) takes --home")
            }
        }
    }

    /// A mistyped command names the nearest one, as a mistyped option does; the vault is not touched.
    func testAMistypedCommandSuggestsTheNearest() throws {
        let cases: [([String], String)] = [
            (["lst"], "'lst' is not a command of 'authcat'; did you mean 'authcat list'? (see 'authcat --help')"),
            (["cdoe", "github"], "'cdoe' is not a command of 'authcat'; did you mean 'authcat code'?"),
            (["--home", authcat.home.path, "shwo", "x"], "did you mean 'authcat show'?"),
            (
                ["sync", "stauts"],
                "'stauts' is not a command of 'authcat sync'; did you mean 'authcat sync status'? (see 'authcat sync --help')"
            ),
            (["passphrase", "chnage"], "did you mean 'authcat passphrase change'?"),
            (["xyzzy"], "'xyzzy' is not a command of 'authcat' (see 'authcat --help')"),
            (["frobnicate"], "'frobnicate' is not a command of 'authcat' (see 'authcat --help')"),
            (
                ["restore-bakup", "x"],
                "'restore-bakup' is not a command of 'authcat'; did you mean 'authcat restore-backup'?"
            ),
        ]
        for (arguments, message) in cases {
            assertOneLineError(try authcat.run(arguments, withHome: false), containing: message, status: 64)
        }
        let json = try authcat.run(["lst", "--json"], withHome: false)
        XCTAssertTrue(
            json.stderr.contains(#""message":"'lst' is not a command of 'authcat'; did you mean 'authcat list'?"#),
            json.stderr)
        let secretLike = try authcat.run(["JBSWY3DPEHPK3PXP"], withHome: false)
        assertOneLineError(
            secretLike, containing: "the word (not shown: it could be a secret) is not a command of 'authcat'",
            status: 64)
        XCTAssertFalse(
            secretLike.stderr.contains("JBSWY3DPEHPK3PXP"), "a pasted secret is not echoed: \(secretLike.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: authcat.home.path))
    }

    /// Help prints an indented line of a command's discussion (a table of
    /// formats, settings or variables) as it is, and wraps one of 80 columns
    /// or more at the left margin, out of its table: none is that wide.
    func testNoIndentedHelpLineIsWiderThanTheHelp() {
        var commands: [(path: String, type: ParsableCommand.Type)] = [("authcat", AuthCat.self)]
        while let (path, command) = commands.popLast() {
            commands += command.configuration.subcommands.map { ("\(path) \($0._commandName)", $0) }
            for line in command.configuration.discussion.split(separator: "\n") where line.hasPrefix(" ") {
                XCTAssertLessThan(line.count, 80, "\(path) --help: \(line)")
            }
        }
    }

    /// A usage error names the command the line names, also when `--home`'s
    /// folder has a command's name: the one reading of the command words
    /// passes over an option's value.
    func testAUsageErrorNamesTheCommandWhateverHomeIsCalled() throws {
        let result = try authcat.run(["--home", "code", "sync", "now", "--bogus"], withHome: false)
        assertOneLineError(result, containing: "(see 'authcat sync now --help')", status: 64)
        let mistyped = try authcat.run(["--home", "sync", "passphrase", "chnage"], withHome: false)
        assertOneLineError(mistyped, containing: "did you mean 'authcat passphrase change'?", status: 64)
    }

    /// `help` of a command that does not exist is a usage error, like the command itself.
    func testHelpOfAnUnknownCommandIsAUsageError() throws {
        assertOneLineError(
            try authcat.run(["help", "nosuch"], withHome: false),
            containing: "'nosuch' is not a command of 'authcat' (see 'authcat --help')", status: 64)
        assertOneLineError(try authcat.run(["help", "nosuchcommand"], withHome: false), status: 64)
        assertOneLineError(
            try authcat.run(["help", "lst"], withHome: false), containing: "did you mean 'authcat list'?", status: 64)
        assertOneLineError(
            try authcat.run(["help", "sync", "stauts"], withHome: false),
            containing: "'stauts' is not a command of 'authcat sync'", status: 64)
        XCTAssertEqual(try authcat.run(["help", "sync", "status"], withHome: false).status, 0)
        XCTAssertEqual(try authcat.run(["help"], withHome: false).status, 0)
    }

    /// The top-level help names every variable authcat reads (but its
    /// internal ones), and how statuses are used.
    func testRootHelpNamesEveryVariableAuthcatReads() throws {
        let sources = Self.repository.appendingPathComponent("Sources")
        var variables: Set<String> = ["NO_COLOR"]
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift", let text = try? String(contentsOf: file, encoding: .utf8) else {
                continue
            }
            let pattern = try NSRegularExpression(pattern: #""(AUTHCAT_[A-Z_]+)""#)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                variables.insert((text as NSString).substring(with: match.range(at: 1)))
            }
        }
        variables.remove("AUTHCAT_INTERNAL_CLIPBOARD_HOLD_SECONDS")
        variables.remove("AUTHCAT_COMP_WORDBREAKS")
        // Read only by the tests' own build (Invocation.swift): no user's program has it.
        variables.remove("AUTHCAT_TEST_CHEAPEST_KDF")
        XCTAssertTrue(variables.contains("AUTHCAT_SYNC_PASSPHRASE_FILE"), "\(variables)")
        let help = try authcat.run(["--help"], withHome: false).stdout
        for variable in variables {
            XCTAssertTrue(help.contains(variable), "root help lacks \(variable)")
        }
        XCTAssertTrue(help.contains("64 for a usage error"), help)
    }

    /// Options list their values once (ArgumentParser adds the list).
    func testOptionHelpSaysEachThingOnce() throws {
        let help = try authcat.run(["add", "--help"], withHome: false).stdout
        XCTAssertFalse(help.contains("). (values:"), help)
        XCTAssertFalse(help.contains("(default: totp)"), help)
        XCTAssertTrue(help.contains("printf '%s\\n' \"$SECRET\" \"$PIN\""), "the Yandex example keeps its \\n: \(help)")
    }

    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    func testHelpSubcommandWorks() throws {
        let result = try authcat.run(["help", "code"], withHome: false)
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdout.contains("--at <unix-seconds>"), result.stdout)
    }

    /// Both programs answer --version (the front hands it to the full
    /// program), with the one version in the source, and exit 0.
    func testVersionFromBothPrograms() throws {
        let front = try authcat.run(["--version"], withHome: false)
        XCTAssertEqual(front.status, 0, front.stderr)
        XCTAssertNotNil(front.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression), front.stdout)
        let full = try authcat.runAsProcess(program: AuthCatRunner.fullProgramURL, ["--version"])
        XCTAssertEqual(full.status, 0, full.stderr)
        XCTAssertEqual(full.stdout, front.stdout)
        XCTAssertEqual(front.stderr + full.stderr, "")
    }
}
