import Foundation
import XCTest

/// `authcat code --watch` in a real terminal (bash in tmux): codes with a
/// countdown in the alternate screen, and the terminal given back on `q`,
/// Ctrl-C and SIGTERM.
final class LiveViewTests: AuthCatTestCase {
    private var shell: TerminalShell!

    override func setUpWithError() throws {
        try super.setUpWithError()
        try add("rfc", issuer: "Test")
        try add("counter", issuer: "Bank", secret: Self.otherSecret, ["--type", "hotp"])
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

    /// Starts the view and waits for the TOTP code in the alternate screen.
    /// - Parameter label: what the screen shows of the account (a narrow one cuts it).
    private func startWatching(_ extra: String = "", label: String = "Test:rfc") throws -> String {
        try shell.type("\(extra)authcat code --watch", "Enter")
        var shown = ""
        try shell.waitFor("the live table") { screen in
            shown = screen
            return screen.contains(label) && screen.range(of: #"\b\d{6}\b"#, options: .regularExpression) != nil
        }
        XCTAssertTrue(try shell.showsAlternateScreen())
        return shown
    }

    private func waitForTheShellAgain() throws {
        try shell.waitForLine(TerminalShell.prompt)
        XCTAssertFalse(try shell.showsAlternateScreen())
    }

    func testTheTableCountsDownAndQGivesTheTerminalBack() throws {
        let first = try startWatching()
        XCTAssertTrue(first.contains("Bank:counter"), first)
        // The countdown moves: the screen changes within a few seconds without a key pressed.
        try shell.waitFor("a new countdown", timeout: 60) { $0 != first && $0.contains("Test:rfc") }
        try shell.type("q")
        try waitForTheShellAgain()
        let counters = try listedAccounts().filter { $0["name"] as? String == "counter" }.map { $0["counter"] as? Int }
        XCTAssertEqual(counters, [0], "listing an HOTP account must not use a counter value")
    }

    func testCtrlCAndSIGTERMGiveTheTerminalBack() throws {
        _ = try startWatching()
        try shell.type("C-c")
        try waitForTheShellAgain()
        _ = try startWatching()
        // The view this test started, by its id: never another on the machine.
        let views = try shell.runningCommands().filter { $0.commandLine.contains("code --watch") }
        XCTAssertEqual(views.count, 1, "one live view runs in the shell: \(views)")
        for view in views { XCTAssertEqual(kill(view.pid, SIGTERM), 0) }
        try waitForTheShellAgain()
    }

    func testNoColourAndANarrowTerminal() throws {
        try shell.resize(columns: 30, rows: 20)
        let screen = try startWatching("NO_COLOR=1 ", label: "Te…")
        XCTAssertFalse(screen.contains("Test:rfc"), "a label too long for 30 columns is cut, not wrapped")
        let escapes = try shell.screenWithEscapes()
        XCTAssertFalse(escapes.contains("\u{1B}[3"), "a colour escape under NO_COLOR")
        for line in try shell.screen().split(separator: "\n") {
            XCTAssertLessThanOrEqual(line.count, 30, String(line))
        }
        try shell.type("q")
        try waitForTheShellAgain()
    }

    /// A pane shorter than the list: the rows that do not fit are counted on
    /// the last row, which stays on screen (a move past the last row clamps
    /// to it, so erasing "below" from there once wiped it at every redraw).
    func testAShortPaneShowsHowManyMoreOnItsLastRow() throws {
        // Sorted first, so the one account row that fits counts down.
        try add("alpha", issuer: "Aaa")
        try add("beta", issuer: "Aab")
        try shell.resize(columns: 80, rows: 3)
        try shell.type("NO_COLOR=1 authcat code --watch", "Enter")
        let more = "… 3 more; make the window taller or give a QUERY"
        var first = ""
        try shell.waitFor("the 'more' line") { screen in
            first = screen
            return screen.contains("Aaa:alpha") && screen.contains(more)
        }
        let rows = first.split(separator: "\n").map(String.init)
        XCTAssertEqual(rows.count, 3, first)
        XCTAssertEqual(rows.last, more, "the count is the screen's last line")
        XCTAssertTrue(try shell.showsAlternateScreen())
        // Redrawn as the countdown moves, and still there.
        try shell.waitFor("a redraw with the 'more' line", timeout: 10) { $0 != first && $0.contains(more) }
        try shell.type("q")
        try waitForTheShellAgain()
    }

    func testAPipeIsRefused() throws {
        let result = try authcat.run(["code", "--watch"])
        assertOneLineError(result, containing: "--watch needs a terminal", status: 1)
    }
}
