import Foundation
import XCTest

/// Account names completed by the committed scripts in real shells: bash
/// (with bash-completion), zsh and fish, each in tmux with a clean
/// configuration, typing Tab as a person does. They complete the way
/// `authcat code` matches: case ignored, any part of the issuer or name,
/// and names with colons, spaces and accents arrive intact.
final class ShellCompletionTests: AuthCatTestCase {
    func testBash() throws { try assertCompletesAccounts(in: .bash) }
    func testZsh() throws { try assertCompletesAccounts(in: .zsh) }
    func testFish() throws { try assertCompletesAccounts(in: .fish) }

    private func assertCompletesAccounts(in kind: TerminalShell.Kind) throws {
        for program in ["/usr/bin/tmux", "/usr/bin/\(kind.rawValue)"]
            + (kind == .bash ? ["/usr/share/bash-completion/bash_completion"] : [])
        {
            XCTAssertTrue(FileManager.default.fileExists(atPath: program), "\(program) is missing; run scripts/setup")
        }
        try add("alice@work", issuer: "GitHub")
        try add("alice", issuer: "GitLab")
        try add("bob", issuer: "GitLab")
        try add("carol smith", issuer: "Example")
        try add("josé", issuer: "Café")

        let userHome = authcat.root.appendingPathComponent("shell-home")
        let shell = try TerminalShell(
            kind, userHome: userHome, authcatFolder: AuthCatRunner.executableURL.deletingLastPathComponent(),
            environment: ["AUTHCAT_HOME": authcat.home.path], completions: Self.completionsFolder)
        let prompt = TerminalShell.prompt
        let unique = [
            ("authcat code GitH", "authcat code GitHub:alice@work"),  // no backslash before the colon
            ("authcat code GitHub:al", "authcat code GitHub:alice@work"),  // across bash's word break
            ("authcat code gith", "authcat code GitHub:alice@work"),  // case ignored
            (
                "authcat code github:AL",
                kind == .bash ? "authcat code github:alice@work" : "authcat code GitHub:alice@work"
            ),
            ("authcat code jos", "authcat code Café:josé"),  // part of a name, not an accent lost
            ("authcat code CAROL", "authcat code Example:carol\\ smith"),  // a space, quoted
            ("authcat code Example:carol\\ s", "authcat code Example:carol\\ smith"),
            ("authcat code \"GitHub:al", "authcat code \"GitHub:alice@work\""),
            ("authcat show --home \(authcat.home.path) bo", "authcat show --home \(authcat.home.path) GitLab:bob"),
        ]
        for (typed, completed) in unique {
            try shell.complete(typed)
            try shell.waitForLine(prompt + completed)
            // The completed word runs: it names the account it shows.
            guard completed.hasPrefix("authcat code") else { continue }
            try shell.type("C-l")
            try shell.waitFor("a cleared screen") { !$0.contains("287082") }
            try shell.type(" --at 59", "Enter")
            try shell.waitFor("the code of '\(completed)'") { $0.contains("287082") }
            try shell.waitForLine(prompt)
        }

        // Two matches in the middle of their labels: every shell lists both
        // and leaves what was typed, also at a second Tab; none is picked.
        // (fish's second Tab would choose in its pager, as the user asks it to.)
        try shell.complete("authcat code ali", tabs: kind == .fish ? 1 : 2)
        try shell.waitFor("both alice accounts listed") { screen in
            screen.contains("GitHub:alice@work") && screen.contains("GitLab:alice")
        }
        XCTAssertEqual(shell.commandLine(in: try shell.screen()), prompt + "authcat code ali")
    }

    private static let completionsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("completions")
}
