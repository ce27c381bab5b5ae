import Foundation
import XCTest

final class CompletionTests: AuthCatTestCase {
    /// The committed scripts in completions/ must be what the binary generates now.
    func testCommittedCompletionScriptsAreUpToDate() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("completions")
        for (shell, file) in [("bash", "authcat.bash"), ("zsh", "_authcat"), ("fish", "authcat.fish")] {
            let generated = try authcat.run(["--generate-completion-script", shell], withHome: false)
            XCTAssertEqual(generated.status, 0, generated.stderr)
            XCTAssertTrue(
                generated.stdout.contains("---completion code"), "\(shell) completes account names dynamically")
            let committed = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            XCTAssertTrue(
                committed == generated.stdout,
                "completions/\(file) is out of date; run scripts/regenerate")
        }
    }

    /// A shell without a script is named as such, not read as a command word.
    func testAShellWithoutAScriptIsAUsageError() throws {
        assertOneLineError(
            try authcat.run(["--generate-completion-script", "tcsh"], withHome: false),
            containing: "authcat: there is no completion script for 'tcsh'; the shells are zsh, bash, fish "
                + "(see 'authcat --help')",
            status: 64)
    }

    func testAccountNamesCompleteFromTheVaultNamedByHome() throws {
        try add("alice", issuer: "GitHub")
        try add("bob", issuer: "GitLab")
        try add("carol", issuer: "Example")
        let result = try complete(["code", "--home", authcat.home.path, "git"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutLines, ["GitHub:alice", "GitLab:bob"])
    }

    func testCompletionHonoursTheEnvironmentAndScopes() throws {
        let id = try add("alice", issuer: "GitHub")
        try add("bob", issuer: "GitLab")
        try succeed(["rm", id, "--yes"])
        let environment = ["AUTHCAT_HOME": authcat.home.path]
        XCTAssertEqual(try complete(["code", ""], environment: environment).stdoutLines, ["GitLab:bob"])
        XCTAssertEqual(
            try complete(["restore", ""], command: "restore", environment: environment).stdoutLines, ["GitHub:alice"])
        XCTAssertEqual(
            try complete(["history", ""], command: "history", environment: environment).stdoutLines,
            ["GitHub:alice", "GitLab:bob"])
    }

    func testCompletionNeverAsksForAPassphraseOrPrintsAnError() throws {
        try add("alice", issuer: "GitHub")
        let passphrase = authcat.root.appendingPathComponent("pass")
        try "secret words\n".write(to: passphrase, atomically: true, encoding: .utf8)
        try succeed(["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": passphrase.path])
        let locked = try complete(["code", "--home", authcat.home.path, "G"])
        XCTAssertEqual(locked.stdoutLines, ["GitHub:alice"], "labels need no passphrase")
        XCTAssertEqual(locked.stderr, "")

        let missing = try complete(["code", "--home", authcat.root.appendingPathComponent("nothing").path, "G"])
        XCTAssertEqual(missing.status, 0)
        XCTAssertEqual(missing.stdout, "")
        XCTAssertEqual(missing.stderr, "")
    }

    func testNamesCompleteTheWayCodeMatchesThem() throws {
        try add("alice@work", issuer: "GitHub")
        try add("alice", issuer: "GitLab")
        try add("josé", issuer: "Café")
        try add("x", issuer: "Bob")
        let home = ["AUTHCAT_HOME": authcat.home.path]
        // Case ignored, any part of the issuer or name, or the start of the label.
        XCTAssertEqual(
            try complete(["code", "ALI"], environment: home).stdoutLines, ["GitHub:alice@work", "GitLab:alice"])
        XCTAssertEqual(try complete(["code", "github:AL"], environment: home).stdoutLines, ["GitHub:alice@work"])
        XCTAssertEqual(try complete(["code", "JOS"], environment: home).stdoutLines, ["Café:josé"])
        XCTAssertEqual(try complete(["code", "work"], environment: home).stdoutLines, ["GitHub:alice@work"])
        // The exact label, and the labels it begins.
        XCTAssertEqual(try complete(["code", "gitlab:alice"], environment: home).stdoutLines, ["GitLab:alice"])
        // Quotes and backslashes are the shell's, not part of the name.
        XCTAssertEqual(try complete(["code", "'caf"], environment: home).stdoutLines, ["Café:josé"])
        XCTAssertEqual(try complete(["code", "Gi\\tH"], environment: home).stdoutLines, ["GitHub:alice@work"])
        XCTAssertEqual(try complete(["code", "nothing"], environment: home).stdoutLines, [])
    }

    func testZshAndFishGetWholeLabels() throws {
        try add("alice", issuer: "GitHub")
        for shell in ["zsh", "fish"] {
            let result = try complete(
                ["code", "github:A"], environment: ["AUTHCAT_HOME": authcat.home.path, "SAP_SHELL": shell])
            XCTAssertEqual(result.stdoutLines.filter { $0 != " " }, ["GitHub:alice"], shell)
        }
    }

    /// fish puts in the one label it lists, and the start several share, and
    /// lists only its best matches: where that would pick one of several
    /// accounts, make a word that names none (`GitLab:`) or hide a label, the
    /// typed word is offered too, as the labels spell it, which leaves fish
    /// nothing longer to put in, with the labels fish would hide named in its
    /// description. A shared start that still names them is left to fish
    /// (`FishCompletionReplyTests` has the rule; ShellCompletionTests a real fish).
    func testFishIsLeftNothingToPickOrToBreak() throws {
        try add("x", issuer: "Dave")
        try add("dave", issuer: "Expensify")
        try add("alice", issuer: "GitLab")
        try add("bob", issuer: "GitLab")
        try add("alice@work", issuer: "GitHub")
        let fish = ["AUTHCAT_HOME": authcat.home.path, "SAP_SHELL": "fish", "SAP_SHELL_VERSION": "3.6.0"]
        func labels(_ word: String) throws -> [String] {
            try complete(["code", word], environment: fish).stdoutLines.filter { $0 != " " }
        }
        XCTAssertEqual(try labels("dav"), ["Dave:x", "Dav\talso Expensify:dave"])
        XCTAssertEqual(try labels("gitl"), ["GitLab:alice", "GitLab:bob"])
        XCTAssertEqual(try labels("gi"), ["GitHub:alice@work", "GitLab:alice", "GitLab:bob"])
        XCTAssertEqual(try labels("ali"), ["GitHub:alice@work", "GitLab:alice"])
        XCTAssertEqual(try labels("gitlab:b"), ["GitLab:bob"])
    }

    /// bash's readline replaces only the text after the last `:` or `=`, or
    /// after an open quote, so that is what the candidates hold, quoted for
    /// where they go. Readline puts in the start the labels share, which
    /// names them all (`GitLab:`); where that start would not keep the typed
    /// word (a match in the middle of names), the typed word is listed with
    /// them, which leaves readline no start to put in.
    func testBashGetsWhatReplacesTheEndOfTheWord() throws {
        try add("alice@work", issuer: "GitHub")
        try add("alice", issuer: "GitLab")
        try add("carol smith", issuer: "Example")
        try add("o'hara", issuer: "Mail")
        try add("vpn/alice", issuer: "Work")
        let bash = ["AUTHCAT_HOME": authcat.home.path, "SAP_SHELL": "bash"]
        func replies(_ word: String) throws -> [String] { try complete(["code", word], environment: bash).stdoutLines }
        XCTAssertEqual(try replies("GitH"), ["GitHub:alice@work"])
        XCTAssertEqual(try replies("GitHub:al"), ["alice@work"])
        XCTAssertEqual(try replies("github:AL"), ["alice@work"])
        XCTAssertEqual(try replies("carol"), ["Example:carol\\ smith"])
        XCTAssertEqual(try replies("Example:carol\\ s"), ["carol\\ smith"])
        XCTAssertEqual(try replies("\"Example:c"), ["Example:carol smith"])
        XCTAssertEqual(try replies("'mail:o"), ["Mail:o'\\''hara"])
        XCTAssertEqual(try replies("hara"), ["Mail:o\\'hara"])
        // They share no start: readline keeps "ali" and lists them. A label
        // with a slash is listed whole (the script shows no file names).
        XCTAssertEqual(try replies("ali"), ["GitHub:alice@work", "GitLab:alice", "Work:vpn/alice"])
        XCTAssertEqual(try replies("gi"), ["GitHub:alice@work", "GitLab:alice"])
        try add("y", issuer: "Elex")
        // "ex" begins one and is inside the other, both begin with "E": only
        // a space before the typed word leaves them no shared start.
        XCTAssertEqual(try replies("ex"), [" ex", "Elex:y", "Example:carol\\ smith"])
        try add("bob", issuer: "GitLab")
        // "GitLab:" names both, so readline may put it in; after the colon,
        // "alice" and "bob" share nothing.
        XCTAssertEqual(try replies("gitl"), ["GitLab:alice", "GitLab:bob"])
        // They share "GitLab:", which would replace "itl": "itl" is listed too, and stays.
        XCTAssertEqual(try replies("itl"), ["itl", "GitLab:alice", "GitLab:bob"])
        XCTAssertEqual(try replies("GitLab:"), ["alice", "bob"])
        XCTAssertEqual(try replies("GitLab:b"), ["bob"])
        // COMP_WORDBREAKS without a colon: readline replaces the whole word.
        let noColon = bash.merging(["AUTHCAT_COMP_WORDBREAKS": " \t\n\"'><=;|&("]) { $1 }
        XCTAssertEqual(try complete(["code", "GitHub:al"], environment: noColon).stdoutLines, ["GitHub:alice@work"])
    }

    /// Runs the completion request a shell script makes for the first
    /// argument of `command`, with `words` after "authcat" and the cursor at the end.
    /// Tags that fold alike are one tag (`Work`, `work`, `Wörk`): offered
    /// once, in the spelling that sorts first, whatever the case typed.
    func testTagsCompleteOnceWhateverTheirCase() throws {
        try add("alice", issuer: "GitHub", ["--tag", "work"])
        try add("bob", issuer: "GitLab", ["--tag", "Work"])
        try add("carol", issuer: "Mail", ["--tag", "Wörk", "--tag", "travel"])
        for typed in ["WO", "wö", "w", ""] {
            let line = ["authcat", "list", "--tag", typed]
            let result = try authcat.runAsProcess(
                ["---completion", "list", "--", "--tag", "3", "\(typed.count)"] + line,
                environment: ["AUTHCAT_HOME": authcat.home.path, "SAP_SHELL": "zsh"], withHome: false)
            let offered = result.stdoutLines.filter { $0 != " " }
            XCTAssertEqual(offered, typed.isEmpty ? ["travel", "Work"] : ["Work"], typed)
        }
    }

    private func complete(
        _ words: [String], command: String = "code", environment: [String: String] = [:]
    ) throws -> AuthCatResult {
        let line = ["authcat"] + words
        let index = line.count - 1
        // A shell runs completion as a program; ArgumentParser reads SAP_SHELL from the process.
        return try authcat.runAsProcess(
            ["---completion", command, "--", "positional@0", "\(index)", "\(line[index].count)"] + line,
            environment: environment, withHome: false)
    }
}
