import Foundation

/// An X server of a test's own (Xvfb) and the programs a test drives it
/// with as a person would (xdotool), for what happens on a real X11 display:
/// the clipboard, menus, typed codes, key bindings.
final class XvfbDisplay: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// ":N", for DISPLAY.
    let display: String
    private let server: Process
    /// Programs started on the display, ended with it.
    private var started: [Process] = []

    /// Starts the server and returns once it accepts connections: with
    /// `-displayfd`, Xvfb picks a display number nobody uses and writes it
    /// only when it is ready.
    init(screen: String = "1024x768x24") throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") else {
            throw Failure(description: "/usr/bin/Xvfb is missing; scripts/setup installs xvfb")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        process.arguments = ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", screen]
        let ready = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = ready
        process.standardError = FileHandle.nullDevice
        try process.run()
        server = process
        // A line, or the end of the output when the server could not start.
        var number = Data()
        while !number.contains(UInt8(ascii: "\n")), case let chunk = ready.fileHandleForReading.availableData,
            !chunk.isEmpty
        {
            number += chunk
        }
        let display = String(decoding: number, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !display.isEmpty, display.allSatisfy(\.isNumber) else {
            throw Failure(description: "Xvfb did not start (it wrote '\(display)' where its display number goes)")
        }
        self.display = ":" + display
    }

    /// Ends every program started on it, then the server (which ends any other client).
    func stop() {
        for process in started.reversed() where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        if server.isRunning {
            server.terminate()
            server.waitUntilExit()
        }
    }

    /// What a program on this display runs with.
    var environment: [String: String] {
        ["DISPLAY": display, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    }

    /// Starts `program` on the display, in the background, ended by `stop`.
    @discardableResult
    func start(
        _ program: String, _ arguments: [String], environment extra: [String: String] = [:]
    ) throws
        -> Process
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = environment.merging(extra) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        started.append(process)
        return process
    }

    /// Runs `xdotool arguments…` to its end; its standard output.
    @discardableResult
    func xdotool(_ arguments: [String], timeout: TimeInterval = 60) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        if process.isRunning {
            process.terminate()
            throw Failure(description: "xdotool \(arguments.joined(separator: " ")) still ran after \(Int(timeout)) s")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "xdotool \(arguments.joined(separator: " ")) failed")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Waits until a window of `windowClass` has the keyboard focus (the window manager gives it on mapping).
    func waitForFocus(class windowClass: String, timeout: TimeInterval = 60) throws {
        let ids = try waitForWindow(class: windowClass)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            // Fails while no window has the focus yet.
            let focused = (try? xdotool(["getwindowfocus"]))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            if ids.contains(focused) { return }
            usleep(20_000)
        }
        throw Failure(description: "no \(windowClass) window got the focus within \(Int(timeout)) s")
    }

    /// Waits until a window of `windowClass` is mapped (xdotool's own wait); the ids of those shown.
    @discardableResult
    func waitForWindow(class windowClass: String) throws -> Set<String> {
        let ids = try xdotool(["search", "--sync", "--onlyvisible", "--class", windowClass])
        return Set(ids.split(separator: "\n").map(String.init))
    }
}

/// A terminal window that records every byte typed into it in a file, as a
/// login form would receive them: its shell turns off line editing and echo
/// and copies standard input to the file.
enum RecordingTerminal {
    /// The command line a terminal emulator runs (`xterm -e`, `foot`).
    static func shellCommand(recordingTo file: String) -> [String] {
        ["/bin/sh", "-c", "stty -icanon -echo; exec cat > '\(file)'"]
    }

    /// What arrived so far.
    static func received(_ file: String) -> String {
        (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    }

    /// Waits until the terminal's shell has made the file (it is ready for keys).
    static func waitUntilReady(_ file: String, timeout: TimeInterval = 60) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !FileManager.default.fileExists(atPath: file) {
            guard Date() < deadline else {
                throw XvfbDisplay.Failure(description: "the recording terminal did not start within \(Int(timeout)) s")
            }
            usleep(10_000)
        }
    }

    /// Waits until `count` bytes arrived; what arrived.
    static func waitFor(count: Int, in file: String, timeout: TimeInterval = 60) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var text = received(file)
        while text.utf8.count < count, Date() < deadline {
            usleep(10_000)
            text = received(file)
        }
        return text
    }
}
