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
        try add("dave", issuer: "Expensify", ["--tag", "travel"])
        try add("x", issuer: "Dave")
        try add("z", issuer: "davey")
        try add("vpn/alice", issuer: "Work")
        try add("Zoë", issuer: "Mail")
        try add("phone 🔑 key", issuer: "Signal")

        let userHome = authcat.root.appendingPathComponent("shell-home")
        let shell = try TerminalShell(
            kind, userHome: userHome, authcatFolder: AuthCatRunner.executableURL.deletingLastPathComponent(),
            environment: ["AUTHCAT_HOME": authcat.home.path], completions: TerminalShell.committedCompletions)
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
            // Accents folded: fish folds none and lists no Zoë, so it gets the word as typed, which names her.
            ("authcat code zoe", kind == .fish ? "authcat code zoe" : "authcat code Mail:Zoë"),
        ]
        // An emoji means itself to bash: only the spaces are escaped (issue 33 §18).
        let emoji = kind == .bash ? [("authcat code phon", "authcat code Signal:phone\\ 🔑\\ key")] : []
        for (typed, completed) in unique + emoji {
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

        // Tags complete too (edit --tag/--untag, list --tag), and the completed word runs.
        try shell.complete("authcat list --tag tr")
        try shell.waitForLine(prompt + "authcat list --tag travel")
        try shell.type("C-l")
        try shell.waitFor("a cleared screen") { !$0.contains("Expensify:dave") }
        try shell.type("Enter")
        try shell.waitFor("the account tagged travel") { $0.contains("Expensify:dave") }
        try shell.waitForLine(prompt)

        // Words that match several accounts: every shell lists them, picks
        // none (also at a second Tab), and leaves a word that names the same
        // accounts: as typed, or grown to a start they share that `code`
        // accepts. (fish's second Tab would choose in its pager, as the user asks it to.)
        let ambiguous = [
            // Matches in the middle of their labels, one with a slash (bash shows no file names).
            (typed: "ali", grown: "ali", listed: ["GitHub:alice@work", "GitLab:alice", "Work:vpn/alice"]),
            // Both begin with it: the word grows to their shared start (fish
            // only grows a word longer, and "Ex" is as long as "ex").
            (typed: "ex", grown: kind == .fish ? "ex" : "Ex", listed: ["Example:carol", "Expensify:dave"]),
            // They share "GitLab:", which names them both: the word grows to it
            // (bash then lists what may follow the colon).
            (
                typed: "gitl", grown: "GitLab:",
                listed: kind == .bash ? ["alice", "bob"] : ["GitLab:alice", "GitLab:bob"]
            ),
            // Both hold it inside, and share "GitLab:", which would lose it: the word stays.
            (typed: "itl", grown: "itl", listed: ["GitLab:alice", "GitLab:bob"]),
            // Two begin with it, in two cases, one has it inside (fish would
            // take the one in the word's case at once, and hide the others).
            (typed: "dav", grown: "dav", listed: ["Dave:x", "davey:z", "Expensify:dave"]),
        ]
        for (typed, grown, listed) in ambiguous {
            // readline lists at the Tab after one that changed nothing.
            let tabs = kind == .fish ? 1 : grown == typed ? 2 : 3
            // A clean screen, so that only this Tab's list can show the names.
            try shell.type("C-u", "C-l")
            try shell.waitFor("a screen without \(listed)") { screen in !listed.contains { screen.contains($0) } }
            try shell.complete("authcat code \(typed)", tabs: tabs)
            try shell.waitFor("\(listed) listed for '\(typed)'") { screen in
                listed.allSatisfy { screen.contains($0) }
            }
            let screen = try shell.screen()
            XCTAssertEqual(shell.commandLine(in: screen), prompt + "authcat code \(grown)", "after '\(typed)'")
            // The list begins each row at the screen's edge: no candidate behind a space (issue 33 §18).
            let rows = screen.split(separator: "\n").filter { row in listed.contains { row.contains($0) } }
            XCTAssertFalse(rows.contains { $0.hasPrefix(" ") }, screen)
            // The word still names all of them: code lists them instead of a code.
            try shell.type(" --at 59", "Enter")
            try shell.waitFor("'\(grown)' naming several accounts") { $0.contains("'\(grown)' matches") }
            try shell.waitForLine(prompt)
        }
    }

}
