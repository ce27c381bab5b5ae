import Foundation
import XCTest

/// `pick` on a terminal: fzf is the menu (bash in a tmux pane, no display),
/// drawn on the terminal while the code goes to standard output.
final class TerminalPickTests: AuthCatTestCase {
    private var shell: TerminalShell!

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/fzf") else {
            throw TerminalShellError.timedOut("/usr/bin/fzf is missing; scripts/setup installs fzf")
        }
        try add("alice", issuer: "GitHub", secret: Self.rfcSecret)
        try add("bob", issuer: "Google", secret: Self.otherSecret, ["--tag", "work"])
        let userHome = authcat.root.appendingPathComponent("shell-home", isDirectory: true)
        try FileManager.default.createDirectory(at: userHome, withIntermediateDirectories: true)
        shell = try TerminalShell(
            .bash, userHome: userHome, authcatFolder: AuthCatRunner.executableURL.deletingLastPathComponent(),
            environment: ["AUTHCAT_HOME": authcat.home.path], completions: TerminalShell.committedCompletions)
    }

    override func tearDown() {
        shell = nil
        super.tearDown()
    }

    func testFzfOffersTheAccountsOnTheTerminalAndTheChosenCodeIsPrinted() throws {
        let output = authcat.root.appendingPathComponent("picked").path
        let start = Date()
        try shell.type("authcat pick --print > \(TerminalShell.quoted(output)); echo status=$?", "Enter")
        try shell.waitFor("fzf's list") { screen in
            screen.contains("authcat>") && screen.contains("Google: bob  (work)") && screen.contains("GitHub: alice")
        }
        try shell.type("goo")
        try shell.waitFor("the list filtered") { !$0.contains("GitHub: alice") }
        try shell.type("Enter")
        try shell.waitFor("the pick's end") { $0.contains("status=0") }
        let printed = try String(contentsOfFile: output, encoding: .utf8).trimmingCharacters(in: .newlines)
        XCTAssertTrue(try codes(of: "google", since: start).contains(printed), "printed '\(printed)'")
    }
}
