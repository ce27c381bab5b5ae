import AuthCatEssentials
import Foundation

/// A short-lived helper program authcat runs and waits for (a clipboard
/// tool, a menu, a typing tool, pinentry): started with `posix_spawn` and
/// waited for with `waitpid`, with the three descriptors given and none of
/// authcat's others (Foundation's `Process` hands the child a socket it
/// watches for the end, and a tool that leaves a child behind, as the
/// clipboard tools do, would keep it open).
struct ChildProcess: Sendable {
    let executable: URL
    let arguments: [String]
    /// The environment it runs with: the invocation's.
    let environment: [String: String]

    /// The program's name, for messages.
    var name: String { executable.lastPathComponent }

    /// The program called `name` in the first folder of the environment's
    /// `PATH` that has it, executable; nil when none has.
    static func installed(_ name: String, environment: [String: String]) -> URL? {
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return folders.lazy.map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Why it could not be started, in the system's words.
    struct StartFailure: Error {
        var reason: String
    }

    /// Starts it with `input`, `output` and `messages` as its standard
    /// streams (/dev/null for each that is -1), its signal mask cleared and
    /// SIGPIPE back to its default.
    func start(input: Int32, output: Int32, messages: Int32) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, target, flags) in [
            (input, STDIN_FILENO, O_RDONLY), (output, STDOUT_FILENO, O_WRONLY), (messages, STDERR_FILENO, O_WRONLY),
        ] {
            if fd >= 0 {
                posix_spawn_file_actions_adddup2(&actions, fd, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", flags, 0)
            }
        }
        // Such as a `>(…)` the shell handed authcat: a lingering child must not hold it open.
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
        let result = SpawnParts.withCStrings([executable.path] + arguments) { argv in
            SpawnParts.withCStrings(SpawnParts.entries(of: environment)) { environment in
                posix_spawn(&pid, executable.path, &actions, &attributes, argv, environment)
            }
        }
        guard result == 0 else { throw StartFailure(reason: String(cString: strerror(result))) }
        return pid
    }

    /// Runs a tool that finishes at once (a clipboard tool, a typing tool)
    /// with `input` on its standard input, and stops it after `timeout`.
    /// - Returns: nil when it succeeded, else why not: its own message when it gave one.
    func runBriefly(input bytes: [UInt8], timeout: TimeInterval) -> String? {
        // The input is in the pipe before the tool starts, and the pipe's
        // writing end closed: a tool that exits without reading cannot make
        // authcat write to a pipe without a reader (SIGPIPE). Its messages go
        // to a file read once the tool itself has exited: a clipboard tool
        // leaves a child behind that keeps a pipe open long after.
        let input: Int32
        do {
            input = try SpawnParts.filledPipe(bytes)
        } catch let failure as SpawnParts.PipeFailure {
            return "could not hand it its input (\(failure.reason))"
        } catch {
            return "could not hand it its input"
        }
        defer { close(input) }
        let messages = Self.messageFile(environment: environment)
        defer { if messages >= 0 { close(messages) } }
        let pid: pid_t
        do {
            pid = try start(input: input, output: -1, messages: messages)
        } catch {
            return "could not start it (\((error as? StartFailure)?.reason ?? "\(error)"))"
        }
        guard let status = Self.wait(for: pid, timeout: timeout) else {
            kill(pid, SIGKILL)
            _ = Self.wait(for: pid, timeout: 1)
            return "it did not finish within \(Int(timeout)) seconds"
        }
        guard let failure = Self.failure(status) else { return nil }
        let message = Self.message(in: messages)
        return message.isEmpty ? failure : message
    }

    /// What a run to its end gave back.
    struct Finished {
        /// The wait status (`failure(_:)` words it).
        var status: Int32
        /// Its standard output, at most the limit asked for; the caller wipes it when it holds a secret.
        var output: [UInt8]
        /// The start of its standard error, one line.
        var message: String
    }

    /// Runs it to its end, however long a person takes (a menu, a passphrase
    /// dialog), with `input` on its standard input and its output read as it
    /// comes, up to `outputLimit` bytes (the rest is read and dropped).
    /// - Parameter messages: where its standard error goes; -1 keeps it for `Finished.message`
    ///   (fzf, which draws on the terminal's standard error, is given the invocation's).
    func run(input: [UInt8], outputLimit: Int, messages: Int32 = -1) throws -> Finished {
        let inputEnd = try SpawnParts.filledPipe(input)
        defer { close(inputEnd) }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw StartFailure(reason: String(cString: strerror(errno))) }
        let (reader, writer) = (ends[0], ends[1])
        defer { close(reader) }
        _ = fcntl(reader, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writer, F_SETFD, FD_CLOEXEC)
        let kept = messages >= 0 ? -1 : Self.messageFile(environment: environment)
        defer { if kept >= 0 { close(kept) } }
        let pid: pid_t
        do {
            pid = try start(input: inputEnd, output: writer, messages: messages >= 0 ? messages : kept)
        } catch {
            close(writer)
            throw error
        }
        close(writer)
        var output: [UInt8] = []
        // Room for all it may hold, so that growing never leaves an unwiped copy behind.
        output.reserveCapacity(outputLimit)
        var buffer = [UInt8](repeating: 0, count: 4096)
        defer { Wipe.bytes(&buffer) }
        while true {
            let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer[..<min(count, max(0, outputLimit - output.count))]
        }
        let status = Self.wait(for: pid, timeout: nil) ?? -1
        return Finished(status: status, output: output, message: Self.message(in: kept))
    }

    /// The direct child's wait status, or nil if it has not exited within
    /// `timeout` (nil: no limit, for a program that waits on a person).
    static func wait(for pid: pid_t, timeout: TimeInterval?) -> Int32? {
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, deadline == nil ? 0 : WNOHANG)
            if result == pid { return status }
            if result < 0, errno != EINTR { return nil }
            if let deadline, Date() >= deadline { return nil }
            if deadline != nil { usleep(5_000) }
        }
    }

    /// A wait status in words when it is not a clean exit: nil for status 0.
    static func failure(_ status: Int32) -> String? {
        // The low 7 bits are the signal that ended the program, or 0 for an exit.
        let signal = status & 0x7F
        let exitStatus = (status >> 8) & 0xFF
        if signal == 0, exitStatus == 0 { return nil }
        return signal == 0 ? "it exited with status \(exitStatus)" : "it was killed by signal \(signal)"
    }

    /// An unlinked temporary file for the program's standard error, or -1 if
    /// none can be made (the program then runs without its message kept).
    static func messageFile(environment: [String: String]) -> Int32 {
        let folder = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder + "/authcat-tool-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard fd >= 0 else { return -1 }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { buffer in _ = buffer.baseAddress.map { unlink($0) } }
        return fd
    }

    /// The most of a program's message shown in an error.
    private static let messageLimit = 300

    /// The start of what the program wrote to `fd`, as one line safe for a terminal.
    static func message(in fd: Int32) -> String {
        guard fd >= 0 else { return "" }
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
