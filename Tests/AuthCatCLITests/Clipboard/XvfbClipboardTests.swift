import AuthCatTestSupport
import Foundation
import XCTest

/// `code --copy` with the real xclip on a real X server (Xvfb): the code
/// lands on the CLIPBOARD selection, and what was there before comes back
/// when the hold ends. The fake-tool tests (ClipboardClearingTests) cover
/// the rest; this one keeps them honest about what xclip really does.
final class XvfbClipboardTests: AuthCatTestCase {
    private static let xclip = "/usr/bin/xclip"

    private var server: XvfbDisplay?
    private var display = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard FileManager.default.isExecutableFile(atPath: Self.xclip) else {
            throw XvfbDisplay.Failure(description: "\(Self.xclip) is missing; scripts/setup installs xclip")
        }
        let server = try XvfbDisplay(screen: "320x240x24")
        self.server = server
        display = server.display
    }

    override func tearDown() {
        // The X server's end also ends every xclip still serving a selection.
        server?.stop()
        super.tearDown()
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
    /// watches for a child's end open, and hang the wait. Returns once xclip
    /// says it waits for requests, which it does after taking the selection.
    private func owner(of text: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.xclip)
        process.arguments = ["-quiet", "-selection", "clipboard", "-i"]
        process.environment = ["DISPLAY": display, "PATH": "/usr/bin:/bin"]
        let input = Pipe()
        let said = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = said
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        var words = Data()
        while !String(decoding: words, as: UTF8.self).contains("Waiting for selection requests"),
            case let chunk = said.fileHandleForReading.availableData, !chunk.isEmpty
        {
            words += chunk
        }
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
        waitForClipboard("what I had", timeout: 60)

        // A hold long enough that the check below, an xclip of its own, comes before its end on a busy machine.
        let result = try authcat.run(
            ["code", "counter", "--copy"],
            environment: [
                "DISPLAY": display, "AUTHCAT_INTERNAL_CLIPBOARD_HOLD_SECONDS": "8",
            ])
        let copiedBy = Date()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let code = result.stdout.trimmingCharacters(in: .newlines)
        XCTAssertEqual(code.count, 6, result.stdout)
        // xclip takes the selection before it leaves a child to serve it, so this holds at once.
        XCTAssertEqual(clipboard(), code, "the code is on the clipboard as soon as authcat is done")

        let restored = try XCTUnwrap(waitForClipboard("what I had", timeout: 60))
        XCTAssertGreaterThanOrEqual(restored.timeIntervalSince(copiedBy), 7.5, "taken off before the hold ended")
        // authcat's copy took the selection from the first owner, which then ended.
        let deadline = Date().addingTimeInterval(60)
        while previousOwner.isRunning, Date() < deadline { usleep(10_000) }
        XCTAssertFalse(previousOwner.isRunning, "the earlier owner still holds the selection")
    }
}
