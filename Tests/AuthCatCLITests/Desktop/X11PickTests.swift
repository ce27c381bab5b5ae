import AuthCatTestSupport
import Foundation
import XCTest

/// `pick` and `code --type` on a real X11 display (Xvfb) with a real window
/// manager (i3), menus (rofi, dmenu), typing tool (xdotool), clipboard
/// (xclip) and passphrase dialog (pinentry): what arrives in the focused
/// window, on the clipboard or on standard output is checked, not what
/// authcat says it did.
final class X11PickTests: AuthCatTestCase {
    private var x11: XvfbDisplay!
    /// The file the focused terminal window records what is typed into it in.
    private var typedFile = ""

    override func setUpWithError() throws {
        try super.setUpWithError()
        for program in ["i3", "xterm", "xdotool", "rofi", "dmenu", "xclip", "pinentry"]
        where !FileManager.default.isExecutableFile(atPath: "/usr/bin/" + program) {
            throw XvfbDisplay.Failure(description: "/usr/bin/\(program) is missing; scripts/setup installs it")
        }
        x11 = try XvfbDisplay()
        try add("alice", issuer: "GitHub", secret: Self.rfcSecret)
        try add("bob", issuer: "Google", secret: Self.otherSecret, ["--tag", "work"])
    }

    override func tearDown() {
        x11?.stop()
        super.tearDown()
    }

    /// i3 with `bindings`, and a focused terminal window recording what is typed into it.
    private func startDesktop(bindings: [String] = []) throws {
        let config = authcat.root.appendingPathComponent("i3.config")
        try (bindings.map { "bindsym \($0)" }.joined(separator: "\n") + "\n").write(
            to: config, atomically: true, encoding: .utf8)
        try x11.start("/usr/bin/i3", ["-c", config.path], environment: authcat.environment)
        typedFile = authcat.root.appendingPathComponent("typed").path
        try x11.start("/usr/bin/xterm", ["-e"] + RecordingTerminal.shellCommand(recordingTo: typedFile))
        try RecordingTerminal.waitUntilReady(typedFile)
        try x11.waitForFocus(class: "XTerm")
    }

    private var cli: String { AuthCatRunner.fullProgramURL.path }

    private func environment(_ extra: [String: String] = [:]) -> [String: String] {
        authcat.environment.merging(x11.environment) { $1 }.merging(extra) { $1 }
    }

    /// The codes `account` had from `start` to now, with the vault's passphrase when it has one.
    private func codes(of account: String, since start: Date, passphrase: String) throws -> Set<String> {
        let file = authcat.root.appendingPathComponent("passphrase")
        try (passphrase + "\n").write(to: file, atomically: true, encoding: .utf8)
        return try codes(of: account, since: start, environment: ["AUTHCAT_PASSPHRASE_FILE": file.path])
    }

    /// `authcat-cli --home HOME arguments…` started in the background on the display.
    private func startAuthcat(_ arguments: [String], extra: [String: String] = [:]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cli)
        process.arguments = ["--home", authcat.home.path] + arguments
        process.environment = environment(extra)
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, output)
    }

    private func finish(_ process: Process, _ output: Pipe) -> String {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func testAKeyBindingOfI3OffersRofiAndTypesTheChosenCodeIntoTheFocusedWindow() throws {
        let start = Date()
        let command = [cli, "--home", authcat.home.path, "pick", "--menu", "rofi", "--type"].joined(separator: " ")
        try startDesktop(bindings: ["Mod4+o exec \(command)"])
        try x11.xdotool(["key", "super+o"])
        try x11.waitForWindow(class: "rofi")
        try x11.xdotool(["type", "goo"])
        try x11.xdotool(["key", "Return"])
        let typed = RecordingTerminal.waitFor(count: 6, in: typedFile)
        XCTAssertTrue(try codes(of: "google", since: start).contains(typed), "typed '\(typed)'")
        XCTAssertFalse(try codes(of: "github", since: start).contains(typed))
    }

    func testDmenuOffersTheAccountsAndPrintPrintsTheChosenCode() throws {
        let start = Date()
        try startDesktop()
        let (pick, output) = try startAuthcat(["pick", "--menu", "dmenu", "--print"])
        try x11.waitForWindow(class: "dmenu")
        try x11.xdotool(["type", "GitHub"])
        try x11.xdotool(["key", "Return"])
        let printed = finish(pick, output).trimmingCharacters(in: .newlines)
        XCTAssertEqual(pick.terminationStatus, 0)
        XCTAssertTrue(try codes(of: "github", since: start).contains(printed), "printed '\(printed)'")
    }

    func testCodeTypeTypesTheCodeAndEnterIntoTheFocusedWindowAndPrintsNothing() throws {
        let start = Date()
        try startDesktop()
        let result = try authcat.run(["code", "github", "--type", "--type-enter"], environment: x11.environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "", "a typed code is not printed")
        let typed = RecordingTerminal.waitFor(count: 7, in: typedFile)
        XCTAssertEqual(typed.last, "\n", "Enter was pressed after the code")
        XCTAssertTrue(try codes(of: "github", since: start).contains(String(typed.dropLast())), "typed '\(typed)'")
    }

    func testPickCopyOfAQueryNamingOneAccountSkipsTheMenuAndFillsTheClipboard() throws {
        let start = Date()
        // No menu program at all on PATH but the clipboard's: one match needs none.
        let tools = authcat.root.appendingPathComponent("tools", isDirectory: true)
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: tools.appendingPathComponent("xclip").path, withDestinationPath: "/usr/bin/xclip")
        let result = try authcat.run(
            ["pick", "google"],
            environment: x11.environment.merging(["PATH": tools.path, "AUTHCAT_INTERNAL_CLIPBOARD_HOLD_SECONDS": "30"])
            {
                $1
            })
        XCTAssertEqual(result.status, 0, result.stderr)
        let clipboard = try XCTUnwrap(runXclipOutput())
        XCTAssertTrue(try codes(of: "google", since: start).contains(clipboard), "the clipboard holds '\(clipboard)'")
    }

    func testALockedVaultAsksInRofisPasswordModeWithoutATerminal() throws {
        try lockWithPassphrase("menu passphrase")
        let start = Date()
        try startDesktop()
        let (pick, output) = try startAuthcat(["pick", "--menu", "rofi", "--print"])
        try x11.waitForWindow(class: "rofi")
        try x11.xdotool(["type", "alice"])
        try x11.xdotool(["key", "Return"])
        // The list's rofi ends, and the password mode's starts: its window is the one to type in.
        let asking = try waitForChild(of: pick.processIdentifier, withArgument: "-password")
        try x11.xdotool(["search", "--sync", "--onlyvisible", "--pid", "\(asking)"])
        try x11.xdotool(["type", "menu passphrase"])
        try x11.xdotool(["key", "Return"])
        let printed = finish(pick, output).trimmingCharacters(in: .newlines)
        XCTAssertEqual(pick.terminationStatus, 0)
        XCTAssertTrue(try codes(of: "github", since: start, passphrase: "menu passphrase").contains(printed))
    }

    func testALockedVaultAsksWithPinentryWhenTheMenuHasNoPasswordMode() throws {
        try lockWithPassphrase("dialog passphrase")
        let start = Date()
        try startDesktop()
        let (pick, output) = try startAuthcat(["pick", "github", "--print"])
        try x11.waitForWindow(class: "inentry")
        try x11.xdotool(["type", "dialog passphrase"])
        try x11.xdotool(["key", "Return"])
        let printed = finish(pick, output).trimmingCharacters(in: .newlines)
        XCTAssertEqual(pick.terminationStatus, 0)
        XCTAssertTrue(try codes(of: "github", since: start, passphrase: "dialog passphrase").contains(printed))
    }

    func testAPinentryDialogClosedEndsThePickWith130AndNoCode() throws {
        try lockWithPassphrase("dialog passphrase")
        try startDesktop()
        let (pick, output) = try startAuthcat(["pick", "github", "--print"])
        try x11.waitForWindow(class: "inentry")
        try x11.xdotool(["key", "Escape"])
        XCTAssertEqual(finish(pick, output), "")
        XCTAssertEqual(pick.terminationStatus, 130)
    }

    func testTheReadmesRofiModeCopiesTheChosenCode() throws {
        let start = Date()
        let script = authcat.root.appendingPathComponent("rofi-authcat")
        try Self.readmesRofiMode().write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        let programs = AuthCatRunner.executableURL.deletingLastPathComponent().path
        try startDesktop()
        try x11.start(
            "/usr/bin/rofi", ["-modi", "authcat:\(script.path)", "-show", "authcat"],
            environment: authcat.environment.merging([
                "PATH": "\(programs):/usr/bin:/bin", "AUTHCAT_HOME": authcat.home.path,
                "AUTHCAT_INTERNAL_CLIPBOARD_HOLD_SECONDS": "60",
            ]) { $1 })
        try x11.waitForWindow(class: "rofi")
        try x11.xdotool(["type", "Google"])
        try x11.xdotool(["key", "Return"])
        let deadline = Date().addingTimeInterval(60)
        var clipboard = ""
        while Date() < deadline, clipboard.count != 6 {
            clipboard = try runXclipOutput() ?? ""
            usleep(20_000)
        }
        XCTAssertTrue(try codes(of: "google", since: start).contains(clipboard), "the clipboard holds '\(clipboard)'")
    }

    /// The script the README gives for a rofi mode: the code block after its `rofi -modi` line.
    private static func readmesRofiMode() throws -> String {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md"),
            encoding: .utf8)
        let after = try XCTUnwrap(readme.range(of: "rofi -modi"), "the README shows a rofi mode")
        let block = try XCTUnwrap(readme[after.upperBound...].range(of: "```sh\n"))
        let end = try XCTUnwrap(readme[block.upperBound...].range(of: "```"))
        return String(readme[block.upperBound..<end.lowerBound])
    }

    // MARK: Helpers

    private func lockWithPassphrase(_ passphrase: String) throws {
        let file = authcat.root.appendingPathComponent("new-passphrase")
        try (passphrase + "\n").write(to: file, atomically: true, encoding: .utf8)
        try succeed(["passphrase", "set"], environment: ["AUTHCAT_NEW_PASSPHRASE_FILE": file.path])
    }

    /// The process `parent` started that has `argument` on its command line, once there is one.
    private func waitForChild(of parent: pid_t, withArgument argument: String) throws -> pid_t {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            // Each thread's children are listed under that thread.
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(parent)/task")) ?? []
            let children = threads.compactMap {
                try? String(contentsOfFile: "/proc/\(parent)/task/\($0)/children", encoding: .utf8)
            }
            for child in children.joined(separator: " ").split(separator: " ").compactMap({ pid_t($0) }) {
                let commandLine = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(child)/cmdline"))) ?? Data()
                if commandLine.split(separator: 0).contains(Data(argument.utf8)) { return child }
            }
            usleep(20_000)
        }
        throw XvfbDisplay.Failure(description: "no program with \(argument) started within 60 s")
    }

    private func runXclipOutput() throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xclip")
        process.arguments = ["-o", "-selection", "clipboard"]
        process.environment = x11.environment
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
}
