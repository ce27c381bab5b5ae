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

    /// The most of the tool's message shown in the warning.
    private static let messageLimit = 300

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
        let order = environment["WAYLAND_DISPLAY"].map { !$0.isEmpty } == true ? [wayland] + x11 : x11 + [wayland]
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        func installed(_ name: String) -> URL? {
            folders.lazy.map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
                .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        }
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
                _ = Self.wait(for: pid, timeout: 1)
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

    /// Hands `code` to the tool on its standard input.
    ///
    /// The code is written into a pipe before the tool starts, and the pipe's
    /// writing end closed: a code is far smaller than any pipe's buffer, so
    /// the write cannot block, and a tool that exits without reading cannot
    /// make authcat write to a pipe without a reader (SIGPIPE). The tool's
    /// messages go to an unlinked temporary file, read once the tool itself
    /// has exited: xclip, xsel and wl-copy leave a child behind to serve the
    /// selection, which keeps whatever it inherited open long after, so
    /// waiting for the end of a pipe would wait for that child. For the same
    /// reason the tool is started with `posix_spawn` and waited for with
    /// `waitpid`, and it inherits no descriptor but these three (Foundation's
    /// `Process` hands the child a socket it watches for the end).
    /// - Throws: `ClipboardError.failed` with the tool's own message.
    func copy(_ code: String) throws {
        try copy(bytes: Array(code.utf8))
    }

    /// Puts `bytes` on the clipboard, as `copy(_:)` does a code.
    func copy(bytes: [UInt8]) throws {
        let input: Int32
        do {
            input = try SpawnParts.filledPipe(bytes)
        } catch let failure as SpawnParts.PipeFailure {
            throw ClipboardError.failed(name, reason: "could not hand it the code (\(failure.reason))")
        }
        defer { close(input) }
        let messages = messageFile()
        defer { if messages >= 0 { close(messages) } }
        let pid = try spawn(executable, arguments, input: input, output: -1, messages: messages)
        guard let status = Self.wait(for: pid, timeout: Self.timeout) else {
            kill(pid, SIGKILL)
            _ = Self.wait(for: pid, timeout: 1)
            throw ClipboardError.failed(name, reason: "it did not finish within \(Int(Self.timeout)) seconds")
        }
        let message = messages >= 0 ? Self.message(in: messages) : ""
        // The wait status: the low 7 bits are the signal that ended the tool, or 0 for an exit.
        let signal = status & 0x7F
        let exitStatus = (status >> 8) & 0xFF
        if signal == 0, exitStatus == 0 { return }
        let fallback = signal == 0 ? "it exited with status \(exitStatus)" : "it was killed by signal \(signal)"
        throw ClipboardError.failed(name, reason: message.isEmpty ? fallback : message)
    }

    /// Starts `program` with `input`, `output` and `messages` as its
    /// standard streams (/dev/null for each that is -1), and authcat's other
    /// descriptors closed.
    private func spawn(
        _ program: URL, _ arguments: [String], input: Int32, output: Int32, messages: Int32
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input >= 0 {
            posix_spawn_file_actions_adddup2(&actions, input, STDIN_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        }
        if output >= 0 {
            posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        }
        if messages >= 0 {
            posix_spawn_file_actions_adddup2(&actions, messages, STDERR_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        }
        // Such as a `>(…)` the shell handed authcat: the lingering child must not hold it open.
        for fd in SpawnParts.openDescriptors() where fd > STDERR_FILENO {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var defaults = sigset_t()
        sigemptyset(&noSignals)
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var pid = pid_t()
        let result = SpawnParts.withCStrings([program.path] + arguments) { argv in
            SpawnParts.withCStrings(SpawnParts.entries(of: environment)) { environment in
                posix_spawn(&pid, program.path, &actions, &attributes, argv, environment)
            }
        }
        guard result == 0 else {
            throw ClipboardError.failed(name, reason: "could not start it (\(String(cString: strerror(result))))")
        }
        return pid
    }

    /// The direct child's wait status, or nil if it has not exited within `timeout`.
    private static func wait(for pid: pid_t, timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return status }
            if result < 0, errno != EINTR { return nil }
            if Date() >= deadline { return nil }
            usleep(5_000)
        }
    }

    /// An unlinked temporary file for the tool's standard error, or -1 if
    /// none can be made (the copy is then tried without the tool's message).
    private func messageFile() -> Int32 {
        let folder = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder + "/authcat-clipboard-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard fd >= 0 else { return -1 }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
        return fd
    }

    /// The start of what the tool wrote, as one line safe for a terminal.
    private static func message(in fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return "" }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        let oneLine = text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: "; ")
        let sanitized = TerminalText.sanitized(oneLine)
        return sanitized.count > messageLimit ? String(sanitized.prefix(messageLimit)) + "…" : sanitized
    }
}
