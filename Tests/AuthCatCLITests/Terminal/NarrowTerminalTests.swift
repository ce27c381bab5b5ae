import Foundation
import XCTest

/// `list` and `code` in a real terminal narrower than their rows (bash in a
/// tmux pane 40 columns wide): a long label is cut with `…` so that each row
/// fits on one line, from the quick front and from authcat-cli alike, while a
/// pipe and `--json` get every name whole.
final class NarrowTerminalTests: AuthCatTestCase {
    private var shell: TerminalShell!
    private var commands = 0
    private static let columns = 40
    private static let longName = "a-very-long-account-name-that-goes-on-and-on@example.com"

    override func setUpWithError() throws {
        try super.setUpWithError()
        try add(Self.longName, issuer: "Example")
        try add("bob", issuer: "Bank")
        let userHome = authcat.root.appendingPathComponent("shell-home", isDirectory: true)
        try FileManager.default.createDirectory(at: userHome, withIntermediateDirectories: true)
        shell = try TerminalShell(
            .bash, userHome: userHome, authcatFolder: AuthCatRunner.executableURL.deletingLastPathComponent(),
            environment: ["AUTHCAT_HOME": authcat.home.path], completions: TerminalShell.committedCompletions)
        try shell.resize(columns: Self.columns, rows: 20)
    }

    override func tearDown() {
        shell = nil
        super.tearDown()
    }

    /// Runs `command` on a cleared screen; returns the lines it printed there.
    private func screenLines(of command: String) throws -> [String] {
        commands += 1
        let end = "END-\(commands)"
        try shell.type("clear; \(command); echo \(end)", "Enter")
        var shown = ""
        try shell.waitFor("the output of \(command)") { screen in
            shown = screen
            // The command line wraps in a narrow pane: the marker alone on a
            // line, with the prompt back below it, is the output's end.
            return screen.split(separator: "\n").contains { $0 == end } && shell.commandLine(in: screen) == "READY>"
        }
        let lines = shown.split(separator: "\n").map(String.init)
        return Array(lines.prefix { $0 != end })
    }

    private func assertFits(_ lines: [String], _ command: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(lines.isEmpty, command, file: file, line: line)
        for printed in lines {
            XCTAssertLessThanOrEqual(printed.count, Self.columns, "\(command): \(printed)", file: file, line: line)
        }
    }

    func testListCutsALongLabelToTheWidth() throws {
        for program in ["authcat", "authcat-cli"] {
            let lines = try screenLines(of: "\(program) list")
            assertFits(lines, program)
            let row = try XCTUnwrap(lines.first { $0.hasPrefix("Example:") }, "\(program): \(lines)")
            XCTAssertTrue(row.contains("…") && row.contains("totp"), "\(program): one row, cut: \(row)")
            XCTAssertTrue(lines.contains { $0.hasPrefix("Bank:bob") && $0.contains("totp") }, "\(lines)")
        }
    }

    func testCodeCutsALongLabelToTheWidth() throws {
        // The quick front answers `code QUERY`; authcat-cli every code at once.
        for command in ["authcat code very-long", "authcat-cli code very-long", "authcat code"] {
            let lines = try screenLines(of: command)
            assertFits(lines, command)
            let row = try XCTUnwrap(lines.first { $0.contains("Example:") }, "\(command): \(lines)")
            XCTAssertTrue(row.contains("…") && row.contains("s left"), "\(command): one row, cut: \(row)")
        }
    }

    func testPipesAndJSONKeepTheWholeName() throws {
        for command in ["authcat list | grep -c on-and-on@example", "authcat list --json | grep -c on-and-on@example"] {
            XCTAssertEqual(try screenLines(of: command), ["1"], command)
        }
        // Piped, a row is as long as its name needs, far wider than the pane.
        let widths = try screenLines(of: "authcat list | wc -L; authcat-cli code | wc -L")
        XCTAssertEqual(widths.count, 2, "\(widths)")
        for width in widths { XCTAssertGreaterThan(Int(width) ?? 0, Self.columns, "\(widths)") }
    }
}
