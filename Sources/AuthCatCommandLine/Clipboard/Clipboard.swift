import AuthCatCore
import AuthCatEssentials
import Foundation

/// The desktop clipboard, through whichever of wl-copy, xclip or xsel is installed.
struct Clipboard {
    let executable: URL
    let arguments: [String]

    /// How long the tool may take before authcat gives up on it. wl-copy,
    /// xclip and xsel hand the selection to a background child and return
    /// at once; only a tool stuck on something (a display that never answers) takes longer.
    static let timeout: TimeInterval = 5

    var name: String { executable.lastPathComponent }

    /// The tool that prints what the clipboard holds (wl-paste beside
    /// wl-copy; xclip and xsel in another mode), or nil if there is none.
    var reader: URL?
    var readArguments: [String] = []
    /// The environment the tools run with: the invocation's.
    var environment: [String: String]

    /// The first clipboard tool found on `PATH`; wl-copy first under Wayland.
    /// - Throws: `ClipboardError.noTool` when none is installed.
    static func find(environment: [String: String]) throws -> Clipboard {
        let wayland = Tool(name: "wl-copy", arguments: [], reader: "wl-paste", readArguments: ["--no-newline"])
        let x11 = [
            Tool(
                name: "xclip", arguments: ["-selection", "clipboard"], reader: "xclip",
                readArguments: ["-o", "-selection", "clipboard"]),
            Tool(
                name: "xsel", arguments: ["--clipboard", "--input"], reader: "xsel",
                readArguments: ["--clipboard", "--output"]),
        ]
        let order = DesktopSession(environment: environment) == .wayland ? [wayland] + x11 : x11 + [wayland]
        func installed(_ name: String) -> URL? { ChildProcess.installed(name, environment: environment) }
        for tool in order {
            if let path = installed(tool.name) {
                return Clipboard(
                    executable: path, arguments: tool.arguments, reader: installed(tool.reader),
                    readArguments: tool.readArguments, environment: environment)
            }
        }
        throw ClipboardError.noTool
    }

    private struct Tool {
        var name: String
        var arguments: [String]
        var reader: String
        var readArguments: [String]
    }

    /// How long reading the clipboard may take; shorter than a copy's limit,
    /// since a tool that hangs here would hang again when asked to copy.
    static let readTimeout: TimeInterval = 2

    /// The most of the clipboard's content authcat keeps to put back. It
    /// travels to the clearer as Base64 (four bytes for three) inside the
    /// request, which must fit in `DetachedLauncher.maximumInput`.
    static let readLimit = (DetachedLauncher.maximumInput - 4096) / 4 * 3

    /// What the clipboard holds now.
    ///
    /// The tool's output is read while it runs, and only up to its exit: a
    /// descendant that inherited the pipe cannot keep authcat waiting.
    /// - Throws: `ClipboardError.unreadable` when there is no reading tool,
    ///   it fails (xclip fails on an empty clipboard), or the content is larger than `readLimit`.
    func contents() throws -> [UInt8] {
        guard let reader else { throw ClipboardError.unreadable("no tool to read it with") }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw ClipboardError.unreadable(String(cString: strerror(errno))) }
        let (output, writer) = (ends[0], ends[1])
        defer { close(output) }
        _ = fcntl(output, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writer, F_SETFD, FD_CLOEXEC)
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
        let pid: pid_t
        do {
            pid = try spawn(reader, readArguments, input: -1, output: writer, messages: -1)
        } catch {
            close(writer)
            throw error
        }
        close(writer)
        var content: [UInt8] = []
        // Room for all it may hold, so that growing never leaves an unwiped copy behind.
        content.reserveCapacity(Self.readLimit)
        var tooLarge = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        defer { Wipe.bytes(&buffer) }
        func drain() {
            while true {
                let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                if content.count + count > Self.readLimit { tooLarge = true }
                if !tooLarge { content += buffer[..<count] }
            }
        }
        let deadline = Date().addingTimeInterval(Self.readTimeout)
        var status: Int32 = 0
        while true {
            drain()
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0, errno != EINTR { throw ClipboardError.unreadable("could not wait for it") }
            if Date() >= deadline {
                kill(pid, SIGKILL)
                _ = ChildProcess.wait(for: pid, timeout: 1)
                Wipe.bytes(&content)
                throw ClipboardError.unreadable("it did not finish within \(Int(Self.readTimeout)) seconds")
            }
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, 5)
        }
        drain()
        guard status == 0, !tooLarge else {
            Wipe.bytes(&content)
            throw ClipboardError.unreadable(tooLarge ? "it holds more than authcat keeps" : "it failed")
        }
        return content
    }

    /// Hands `code` to the tool on its standard input (`ChildProcess.runBriefly`).
    /// - Throws: `ClipboardError.failed` with the tool's own message.
    func copy(_ code: String) throws {
        try copy(bytes: Array(code.utf8))
    }

    /// Puts `bytes` on the clipboard, as `copy(_:)` does a code.
    func copy(bytes: [UInt8]) throws {
        let tool = ChildProcess(executable: executable, arguments: arguments, environment: environment)
        if let failure = tool.runBriefly(input: bytes, timeout: Self.timeout) {
            throw ClipboardError.failed(name, reason: failure)
        }
    }

    /// Starts `program` (the tool or its reader) with the three streams given.
    private func spawn(
        _ program: URL, _ arguments: [String], input: Int32, output: Int32, messages: Int32
    ) throws -> pid_t {
        do {
            return try ChildProcess(executable: program, arguments: arguments, environment: environment)
                .start(input: input, output: output, messages: messages)
        } catch let failure as ChildProcess.StartFailure {
            throw ClipboardError.failed(name, reason: "could not start it (\(failure.reason))")
        }
    }
}
