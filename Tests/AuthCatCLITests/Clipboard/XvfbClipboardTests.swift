import Foundation
import XCTest

/// `code --copy` with the real xclip on a real X server (Xvfb): the code
/// lands on the CLIPBOARD selection, and what was there before comes back
/// when the hold ends. The fake-tool tests (ClipboardClearingTests) cover
/// the rest; this one keeps them honest about what xclip really does.
final class XvfbClipboardTests: AuthCatTestCase {
    private static let xvfb = "/usr/bin/Xvfb"
    private static let xclip = "/usr/bin/xclip"

    private struct SetupError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    private var server: Process?
    private var display = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        for program in [Self.xvfb, Self.xclip] where !FileManager.default.isExecutableFile(atPath: program) {
            throw SetupError("\(program) is missing; scripts/setup installs xvfb and xclip")
        }
        display = try startXvfb()
    }

    override func tearDown() {
        if let server, server.isRunning {
            // The X server's end also ends every xclip still serving a selection.
            server.terminate()
            server.waitUntilExit()
        }
        super.tearDown()
    }

    /// Starts Xvfb on a display number nobody uses and waits for its socket;
    /// returns the display (":N"). Another X server taking the number first
    /// makes this one exit, and the next number is tried.
    private func startXvfb() throws -> String {
        var number = 90
        for _ in 0..<10 {
            while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
                || FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
            { number += 1 }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.xvfb)
            process.arguments = [":\(number)", "-nolisten", "tcp", "-screen", "0", "320x240x24"]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let socket = "/tmp/.X11-unix/X\(number)"
            let deadline = Date().addingTimeInterval(15)
            while process.isRunning, !FileManager.default.fileExists(atPath: socket), Date() < deadline {
                usleep(10_000)
            }
            if process.isRunning, FileManager.default.fileExists(atPath: socket) {
                server = process
                return ":\(number)"
            }
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
            number += 1
        }
        throw SetupError("Xvfb did not start on any of 10 display numbers from :90")
    }

    /// What the clipboard holds now: `xclip -o`, which prints and exits.
    private func clipboard() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.xclip)
        process.arguments = ["-o", "-selection", "clipboard"]
        process.environment = ["DISPLAY": display, "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Puts `text` on the clipboard with an xclip kept in the foreground
    /// (`-quiet`): it serves the selection until another program takes it.
    /// A backgrounded xclip would keep the socket Foundation's `Process`
    /// watches for a child's end open, and hang the wait.
    private func owner(of text: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.xclip)
        process.arguments = ["-quiet", "-selection", "clipboard", "-i"]
        process.environment = ["DISPLAY": display, "PATH": "/usr/bin:/bin"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        return process
    }

    /// Waits until the clipboard holds `expected`, failing after `timeout`; returns when it did.
    @discardableResult
    private func waitForClipboard(
        _ expected: String, timeout: TimeInterval, file: StaticString = #filePath,
        line: UInt = #line
    ) -> Date? {
        let deadline = Date().addingTimeInterval(timeout)
        var seen = ""
        while Date() < deadline {
            seen = clipboard()
            if seen == expected { return Date() }
            usleep(20_000)
        }
        XCTFail("the clipboard held '\(seen)', not '\(expected)', after \(timeout) s", file: file, line: line)
        return nil
    }

    func testXclipGetsTheCodeAndGetsBackWhatWasThere() throws {
        try add("counter", ["--type", "hotp"])
        let previousOwner = try owner(of: "what I had")
        defer { if previousOwner.isRunning { previousOwner.terminate() } }
        waitForClipboard("what I had", timeout: 5)

        let result = try authcat.run(
            ["code", "counter", "--copy"],
            environment: [
                "DISPLAY": display, "AUTHCAT_INTERNAL_CLIPBOARD_HOLD_SECONDS": "2",
            ])
        let copiedBy = Date()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let code = result.stdout.trimmingCharacters(in: .newlines)
        XCTAssertEqual(code.count, 6, result.stdout)
        // xclip takes the selection before it leaves a child to serve it, so this holds at once.
        waitForClipboard(code, timeout: 1)

        let restored = try XCTUnwrap(waitForClipboard("what I had", timeout: 20))
        XCTAssertGreaterThanOrEqual(restored.timeIntervalSince(copiedBy), 1.5, "taken off before the hold ended")
        // authcat's copy took the selection from the first owner, which then ended.
        let deadline = Date().addingTimeInterval(5)
        while previousOwner.isRunning, Date() < deadline { usleep(10_000) }
        XCTAssertFalse(previousOwner.isRunning, "the earlier owner still holds the selection")
    }
}
