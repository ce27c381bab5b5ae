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
        for program in ["/usr/bin/tmux", "/usr/bin/\(kind.rawValue)"] + (kind == .bash ? ["/usr/share/bash-completion/bash_completion"] : []) {
            XCTAssertTrue(FileManager.default.fileExists(atPath: program), "\(program) is missing; run scripts/setup")
        }
        try add("alice@work", issuer: "GitHub")
        try add("alice", issuer: "GitLab")
        try add("bob", issuer: "GitLab")
        try add("carol smith", issuer: "Example")
        try add("josé", issuer: "Café")

        let userHome = authcat.root.appendingPathComponent("shell-home")
        let shell = try TerminalShell(kind, userHome: userHome, authcatFolder: AuthCatRunner.executableURL.deletingLastPathComponent(),
                                      environment: ["AUTHCAT_HOME": authcat.home.path], completions: Self.completionsFolder)
        let prompt = TerminalShell.prompt
        let unique = [
            ("authcat code GitH", "authcat code GitHub:alice@work"),           // no backslash before the colon
            ("authcat code GitHub:al", "authcat code GitHub:alice@work"),      // across bash's word break
            ("authcat code gith", "authcat code GitHub:alice@work"),           // case ignored
            ("authcat code github:AL", kind == .bash ? "authcat code github:alice@work" : "authcat code GitHub:alice@work"),
            ("authcat code jos", "authcat code Café:josé"),                     // part of a name, not an accent lost
            ("authcat code CAROL", "authcat code Example:carol\\ smith"),      // a space, quoted
            ("authcat code Example:carol\\ s", "authcat code Example:carol\\ smith"),
            ("authcat code \"GitHub:al", "authcat code \"GitHub:alice@work\""),
            ("authcat show --home \(authcat.home.path) bo", "authcat show --home \(authcat.home.path) GitLab:bob"),
        ]
        for (typed, completed) in unique {
            try shell.complete(typed)
            try shell.waitForLine(prompt + completed)
        }

        // Two matches in the middle of their labels: bash and fish list both
        // and leave what was typed; zsh puts in the part both share around it.
        if kind == .zsh {
            try shell.complete("authcat code ali")
            try shell.waitForLine(prompt + "authcat code b:alice")
        } else {
            try shell.complete("authcat code ali", tabs: kind == .bash ? 2 : 1)
            try shell.waitFor("both alice accounts listed") { screen in
                screen.contains("GitHub:alice@work") && screen.contains("GitLab:alice")
            }
            XCTAssertEqual(shell.commandLine(in: try shell.screen()), prompt + "authcat code ali")
        }
    }

    private static let completionsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("completions")
}
