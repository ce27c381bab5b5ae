import Foundation
import XCTest

/// `code --copy` takes the code off the clipboard when it expires and puts
/// back what was there, through a fake `xclip` on PATH that keeps the
/// clipboard in a file (`-o` prints it; an empty file fails, as xclip does
/// on an empty clipboard) and logs who ran it. Every wait is for an event,
/// up to a deadline.
final class ClipboardClearingTests: AuthCatTestCase {
    private var bin: URL!
    private var board: URL!
    private var log: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        bin = authcat.root.appendingPathComponent("bin")
        board = authcat.root.appendingPathComponent("board")
        log = authcat.root.appendingPathComponent("log")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let script = bin.appendingPathComponent("xclip")
        // Each run logs "read|write PARENT-PID"; the parent's command line,
        // environment, session and descriptors are kept for the tests to inspect.
        try """
        #!/bin/sh
        proc='\(authcat.root.path)/parent-'$PPID
        cat /proc/$PPID/cmdline > "$proc.cmdline"
        cat /proc/$PPID/environ > "$proc.environ"
        cut -d' ' -f6 /proc/$PPID/stat > "$proc.session"
        ls -l /proc/$PPID/fd/ > "$proc.fds"
        case " $* " in
        *" -o "*)
            echo "read $PPID" >> '\(log.path)'
            [ -s '\(board.path)' ] || exit 1
            cat '\(board.path)' ;;
        *)
            cat > '\(board.path).new' && mv '\(board.path).new' '\(board.path)'
            echo "write $PPID" >> '\(log.path)' ;;
        esac
        """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        try add("fast", ["--period", "2"])
        try add("counter", ["--type", "hotp"])
    }

    private func copy(_ arguments: [String], holdSeconds: Double? = nil) throws -> AuthCatResult {
        var environment = ["PATH": "\(bin.path):/usr/bin:/bin"]
        if let holdSeconds { environment["AUTHCAT_INTERNAL_CLIPBOARD_HOLD_SECONDS"] = "\(holdSeconds)" }
        let result = try authcat.run(arguments, environment: environment, timeout: 30)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        return result
    }

    private func clipboard() -> String {
        (try? String(contentsOf: board, encoding: .utf8)) ?? ""
    }

    private func logLines() -> [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Waits for `condition`, failing after `timeout`; returns when it held.
    @discardableResult
    private func waitFor(
        _ what: String, timeout: TimeInterval = 15, file: StaticString = #filePath, line: UInt = #line,
        _ condition: () -> Bool
    ) -> Date? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return Date() }
            usleep(10_000)
        }
        XCTFail("no \(what) within \(timeout) s; clipboard '\(clipboard())', log \(logLines())", file: file, line: line)
        return nil
    }

    /// The process ids that ran the tool other than `authcat` itself: the clearing processes.
    private func clearers(besides authcatRuns: Int = 1) -> [Int32] {
        let parents = logLines().compactMap { $0.split(separator: " ").last.flatMap { Int32($0) } }
        return parents.filter { pid in
            let cmdline =
                (try? Data(contentsOf: authcat.root.appendingPathComponent("parent-\(pid).cmdline"))) ?? Data()
            return String(decoding: cmdline, as: UTF8.self).contains("clipboard-clear")
        }
    }

    private func waitForExit(of pid: Int32, file: StaticString = #filePath, line: UInt = #line) {
        waitFor("exit of the clearing process \(pid)", file: file, line: line) { kill(pid, 0) != 0 }
    }

    func testATOTPCodeIsTakenOffAtTheEndOfItsPeriodAndWhatWasThereIsPutBack() throws {
        try "what I had".write(to: board, atomically: true, encoding: .utf8)
        let started = Date()
        let result = try copy(["code", "fast", "--copy"])
        let code = result.stdout.trimmingCharacters(in: .newlines)
        // The period ends on the next multiple of 2 s after the code was made.
        let periodEnd = Date(timeIntervalSince1970: (started.timeIntervalSince1970 / 2).rounded(.down) * 2 + 2)
        let restored = try XCTUnwrap(waitFor("restored clipboard") { clipboard() == "what I had" })
        XCTAssertGreaterThanOrEqual(restored.timeIntervalSince(periodEnd), -0.05, "restored before the code expired")
        // authcat read, then wrote the code; the clearer read it back, then restored
        // (the tool logs its write just after the clipboard changes).
        waitFor("the restoring write in the log") { logLines().count >= 4 }
        let lines = logLines()
        XCTAssertEqual(lines.map { $0.split(separator: " ")[0] }, ["read", "write", "read", "write"], "\(lines)")
        let clearer = try XCTUnwrap(clearers().first)
        waitForExit(of: clearer)
        // The clearer holds the code and the earlier content only in memory: not in its
        // command line or environment, where `ps` would show them; it has no secret; it
        // runs in its own session with its output on /dev/null.
        let proc = authcat.root.appendingPathComponent("parent-\(clearer)")
        let visible =
            try String(decoding: Data(contentsOf: proc.appendingPathExtension("cmdline")), as: UTF8.self)
            + String(decoding: Data(contentsOf: proc.appendingPathExtension("environ")), as: UTF8.self)
        for hidden in [code, "what I had", Self.rfcSecret] {
            XCTAssertFalse(visible.contains(hidden), "'\(hidden)' visible in \(visible)")
        }
        XCTAssertEqual(try String(contentsOf: proc.appendingPathExtension("session"), encoding: .utf8), "\(clearer)\n")
        let descriptors = try String(contentsOf: proc.appendingPathExtension("fds"), encoding: .utf8)
        for fd in [1, 2] {
            XCTAssertTrue(descriptors.contains(" \(fd) -> /dev/null"), descriptors)
        }
    }

    func testSomethingCopiedMeanwhileIsLeftAlone() throws {
        try "what I had".write(to: board, atomically: true, encoding: .utf8)
        _ = try copy(["code", "counter", "--copy"], holdSeconds: 2)
        try "copied since".write(to: board, atomically: true, encoding: .utf8)
        // Finished: the clearer has read the clipboard and exited.
        waitFor("the clearing process reading the clipboard") { !clearers().isEmpty }
        waitForExit(of: try XCTUnwrap(clearers().first))
        XCTAssertEqual(clipboard(), "copied since")
        XCTAssertEqual(logLines().last?.hasPrefix("read "), true, "\(logLines())")
    }

    func testAnHOTPCodeIsTakenOffAfterTheHoldAndAnEmptyClipboardIsEmptiedAgain() throws {
        // An empty clipboard: the fake xclip fails to read it, as xclip does.
        let result = try copy(["code", "counter", "--copy"], holdSeconds: 2)
        let copiedBy = Date()
        XCTAssertEqual(clipboard(), result.stdout.trimmingCharacters(in: .newlines))
        let cleared = try XCTUnwrap(waitFor("emptied clipboard") { clipboard() == "" && logLines().count == 4 })
        XCTAssertGreaterThanOrEqual(cleared.timeIntervalSince(copiedBy), 1.5, "cleared before the hold ended")
    }

    func testKeepLeavesTheCode() throws {
        try "what I had".write(to: board, atomically: true, encoding: .utf8)
        let kept = try copy(["code", "counter", "--copy", "--keep"], holdSeconds: 1)
        XCTAssertEqual(logLines().map { $0.split(separator: " ")[0] }, ["write"], "nothing read to put back")
        // A second copy without --keep, on another clipboard, shows when a clearer would have run.
        let otherBoard = authcat.root.appendingPathComponent("other")
        let otherBin = authcat.root.appendingPathComponent("other-bin")
        try FileManager.default.createDirectory(at: otherBin, withIntermediateDirectories: true)
        try
            "#!/bin/sh\ncase \" $* \" in *\" -o \"*) cat '\(otherBoard.path)' ;; *) cat > '\(otherBoard.path)' ;; esac\n"
            .write(to: otherBin.appendingPathComponent("xclip"), atomically: true, encoding: .utf8)
        chmod(otherBin.appendingPathComponent("xclip").path, 0o755)
        try "other".write(to: otherBoard, atomically: true, encoding: .utf8)
        let result = try authcat.run(
            ["code", "counter", "--copy"],
            environment: [
                "PATH": "\(otherBin.path):/usr/bin:/bin", "AUTHCAT_INTERNAL_CLIPBOARD_HOLD_SECONDS": "1",
            ])
        XCTAssertEqual(result.status, 0, result.stderr)
        waitFor("the other clipboard restored") { (try? String(contentsOf: otherBoard, encoding: .utf8)) == "other" }
        XCTAssertEqual(clipboard(), kept.stdout.trimmingCharacters(in: .newlines))
        XCTAssertEqual(logLines().count, 1, "\(logLines())")
    }

    /// The setting clipboard.keep is --keep for every copy: nothing is read to be put back, so no clearing follows.
    func testTheClipboardKeepSettingKeepsTheCode() throws {
        try "what I had".write(to: board, atomically: true, encoding: .utf8)
        try succeed(["config", "set", "clipboard.keep", "true"])
        let kept = try copy(["code", "counter", "--copy"], holdSeconds: 1)
        XCTAssertEqual(logLines().map { $0.split(separator: " ")[0] }, ["write"], "nothing read to put back")
        XCTAssertEqual(clipboard(), kept.stdout.trimmingCharacters(in: .newlines))
        try succeed(["config", "set", "clipboard.keep", "false"])
        _ = try copy(["code", "counter", "--copy"], holdSeconds: 1)
        XCTAssertEqual(
            logLines().map { $0.split(separator: " ")[0] }.prefix(3), ["write", "read", "write"],
            "false is the default: what was there is read, to be put back")
    }
}
