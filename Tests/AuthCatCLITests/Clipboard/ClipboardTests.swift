import Foundation
import XCTest

/// `code --copy` with clipboard tools that fail, exit early, linger or work:
/// fake `xclip`s on PATH. The code is always printed; a failed copy is one
/// warning line with the tool's own message, and the exit status stays 0.
final class ClipboardTests: AuthCatTestCase {
    /// The RFC 6238 secret's code at 59 seconds (SHA-1, 6 digits).
    private let code = "287082"
    private var bin: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        bin = authcat.root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try add("rfc")
    }

    private func tool(_ body: String, name: String = "xclip") throws {
        let script = bin.appendingPathComponent(name)
        try ("#!/bin/sh\n" + body).write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
    }

    /// `--keep`, so that no clearing process runs the fake tool again later (see ClipboardClearingTests).
    private func copy(
        _ arguments: [String] = ["code", "rfc", "--at", "59", "--copy", "--keep"]
    ) throws -> AuthCatResult {
        try authcat.run(arguments, environment: ["PATH": "\(bin.path):/usr/bin:/bin"], timeout: 30)
    }

    private func assertPrintedWithWarning(
        _ result: AuthCatResult, _ warning: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stdout, "\(code)\n", file: file, line: line)
        XCTAssertEqual(
            result.stderrLines, ["authcat: warning: could not copy the code with xclip: \(warning)"], file: file,
            line: line)
    }

    func testAFailingToolLeavesTheCodePrintedAndWarnsWithItsOwnMessage() throws {
        // What xclip says without a display, then a line with an escape sequence that must not reach the terminal.
        try tool(
            """
            echo "Error: Can't open display: (null)" >&2
            printf '  \\033[2Jcleared  \\n\\n' >&2
            exit 1
            """)
        // The old failure was a race (SIGPIPE about half the time): try it often.
        for _ in 0..<10 {
            assertPrintedWithWarning(try copy(), "Error: Can't open display: (null); \\u{1b}[2Jcleared")
        }
    }

    func testAToolThatExitsBeforeReadingNeverKillsAuthcat() throws {
        try tool("exec 0<&-\nexit 1\n")
        for _ in 0..<10 {
            assertPrintedWithWarning(try copy(), "it exited with status 1")
        }
        try tool("exec 0<&-\nexit 0\n")
        for _ in 0..<5 {
            let result = try copy()
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stdout, "\(code)\n")
            XCTAssertEqual(result.stderr, "")
        }
        try tool("kill -TERM $$\n")
        assertPrintedWithWarning(try copy(), "it was killed by signal 15")
    }

    func testAWorkingToolGetsTheCodeAndNothingElse() throws {
        let got = authcat.root.appendingPathComponent("got")
        try tool(
            """
            cat > '\(got.path).stdin'
            echo "$@" > '\(got.path).args'
            env > '\(got.path).env'
            ls -l /proc/$$/fd/ > '\(got.path).fds'
            """)
        let result = try copy()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "\(code)\n")
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(
            try String(contentsOfFile: got.path + ".stdin", encoding: .utf8), code, "the code, without a newline")
        XCTAssertEqual(try String(contentsOfFile: got.path + ".args", encoding: .utf8), "-selection clipboard\n")
        let environment = try String(contentsOfFile: got.path + ".env", encoding: .utf8)
        XCTAssertFalse(environment.contains(Self.rfcSecret), "the secret never goes to the tool")
        let descriptors = try String(contentsOfFile: got.path + ".fds", encoding: .utf8)
        // `ls -l` lines end "N -> TARGET". Only standard input is a pipe or
        // socket: authcat's output pipes and whatever else it holds are not handed on.
        let pipes = descriptors.split(separator: "\n").filter { $0.contains("-> pipe:") || $0.contains("-> socket:") }
            .compactMap { $0.components(separatedBy: " -> ").first?.split(separator: " ").last.map(String.init) }
        XCTAssertEqual(pipes, ["0"], "descriptors: \(descriptors)")

        // HOTP: one code, one counter value, copied as printed.
        try add("counter", ["--type", "hotp"])
        let hotp = try copy(["code", "counter", "--copy", "--keep"])
        XCTAssertEqual(hotp.status, 0, hotp.stderr)
        XCTAssertEqual(try String(contentsOfFile: got.path + ".stdin", encoding: .utf8) + "\n", hotp.stdout)
    }

    func testAToolThatLeavesAChildBehindDoesNotHoldAuthcatOpen() throws {
        // Like xclip: the selection is served by a child that lives on, holding what it inherited.
        try tool(
            """
            cat > /dev/null
            (sleep 30; echo late >&2) &
            echo $! > '\(bin.path)/child'
            echo "Error: no selection owner" >&2
            exit 1
            """)
        let result = try copy()
        assertPrintedWithWarning(result, "Error: no selection owner")
        // authcat is done while the tool's child still sleeps: it did not wait for it.
        let child = try XCTUnwrap(
            Int32(
                String(contentsOf: bin.appendingPathComponent("child"), encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertEqual(kill(child, 0), 0, "the tool's child is still running")
        kill(child, SIGKILL)
        XCTAssertFalse(result.stderr.contains("late"))
    }

    func testAToolThatHangsIsGivenUpOn() throws {
        try tool("exec sleep 60\n")
        let result = try copy()
        assertPrintedWithWarning(result, "it did not finish within 5 seconds")
    }

    func testJSONOutputStaysCleanWhenTheCopyFails() throws {
        try tool("echo 'Error: Can'\\''t open display' >&2\nexit 1\n")
        let result = try copy(["code", "rfc", "--at", "59", "--copy", "--keep", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(object["code"] as? String, code)
        XCTAssertEqual(
            result.stderrLines,
            [#"{"level":"warning","message":"could not copy the code with xclip: Error: Can't open display"}"#],
            "under --json the warning is a JSON line too")
    }
}
