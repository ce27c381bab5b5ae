import AuthCatCore
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

    /// The first clipboard tool found on `PATH`; wl-copy first under Wayland.
    /// - Throws: `ClipboardError.noTool` when none is installed.
    static func find(environment: [String: String]) throws -> Clipboard {
        let wayland = Clipboard.candidate("wl-copy", [])
        let x11 = [Clipboard.candidate("xclip", ["-selection", "clipboard"]),
                   Clipboard.candidate("xsel", ["--clipboard", "--input"])]
        let order = environment["WAYLAND_DISPLAY"].map { !$0.isEmpty } == true ? [wayland] + x11 : x11 + [wayland]
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for (name, arguments) in order {
            for folder in folders {
                let path = URL(fileURLWithPath: folder).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: path.path) {
                    return Clipboard(executable: path, arguments: arguments)
                }
            }
        }
        throw ClipboardError.noTool
    }

    private static func candidate(_ name: String, _ arguments: [String]) -> (String, [String]) {
        (name, arguments)
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
        let input = try filledPipe(code)
        defer { close(input) }
        let messages = Self.messageFile()
        defer { if messages >= 0 { close(messages) } }
        let pid = try spawn(input: input, messages: messages)
        guard let status = Self.wait(for: pid, timeout: Self.timeout) else {
            kill(pid, SIGKILL)
            _ = Self.wait(for: pid, timeout: 1)
            throw ClipboardError.failed(name, reason: "it did not finish within \(Int(Self.timeout)) seconds")
        }
        let message = messages >= 0 ? Self.message(in: messages) : ""
        // The wait status: the low 7 bits are the signal that ended the tool, or 0 for an exit.
        let signal = status & 0x7F, exitStatus = (status >> 8) & 0xFF
        if signal == 0, exitStatus == 0 { return }
        let fallback = signal == 0 ? "it exited with status \(exitStatus)" : "it was killed by signal \(signal)"
        throw ClipboardError.failed(name, reason: message.isEmpty ? fallback : message)
    }

    /// Starts the tool with `input` as standard input, `messages` (or
    /// /dev/null) as standard error, /dev/null as standard output, and
    /// authcat's other descriptors closed.
    private func spawn(input: Int32, messages: Int32) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, STDIN_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        if messages >= 0 {
            posix_spawn_file_actions_adddup2(&actions, messages, STDERR_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        }
        // Such as a `>(…)` the shell handed authcat: the lingering child must not hold it open.
        for fd in Self.openDescriptors() where fd > STDERR_FILENO {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), defaults = sigset_t()
        sigemptyset(&noSignals)
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, environ)
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

    private static func openDescriptors() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }
    }

    /// The reading end of a pipe holding `code`, its writing end already closed.
    private func filledPipe(_ code: String) throws -> Int32 {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw ClipboardError.failed(name, reason: "could not hand it the code (\(String(cString: strerror(errno))))")
        }
        let (reader, writer) = (ends[0], ends[1])
        _ = fcntl(reader, F_SETFD, FD_CLOEXEC)
        // Non-blocking, so that even a pipe with a tiny buffer fails instead of hanging.
        _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL) | O_NONBLOCK)
        let bytes = Array(code.utf8)
        let written = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
        let reason = String(cString: strerror(errno))
        close(writer)
        guard written == bytes.count else {
            close(reader)
            throw ClipboardError.failed(name, reason: "could not hand it the code (\(reason))")
        }
        return reader
    }

    /// An unlinked temporary file for the tool's standard error, or -1 if
    /// none can be made (the copy is then tried without the tool's message).
    private static func messageFile() -> Int32 {
        var template = Array((FileManager.default.temporaryDirectory.path + "/authcat-clipboard-XXXXXX").utf8CString)
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
