import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How a process ended.
enum Termination: Equatable, CustomStringConvertible {
    case exited(Int32)
    case killed(Int32)

    var description: String {
        switch self {
        case .exited(let status): "exit \(status)"
        case .killed(let signal): "signal \(signal)"
        }
    }
}

/// One `authcat` process started with `posix_spawn`, so that the test holds its
/// real process id: the front execs `authcat-cli` in place, so a signal sent to
/// this id reaches whichever program runs at that moment. The child gets a new
/// session (no controlling terminal: it can never stop to ask on /dev/tty);
/// stdin comes from a file or /dev/null, stdout and stderr go to files, so a
/// line is "reported" only if authcat had written it out before it died.
final class SpawnedAuthCat {
    /// glibc's POSIX_SPAWN_SETSID, declared only under _GNU_SOURCE, so Swift does not see it.
    private static let spawnSetSID: Int16 = 0x80

    let pid: pid_t
    let arguments: [String]
    private let outputPath: String
    private let errorPath: String
    private(set) var termination: Termination?

    /// Starts `executable arguments…` with exactly `environment`.
    init(
        executable: String, arguments: [String], environment: [String: String], stdinPath: String?,
        scratch: URL
    ) throws {
        self.arguments = arguments
        let name = UUID().uuidString
        outputPath = scratch.appendingPathComponent("\(name).out").path
        errorPath = scratch.appendingPathComponent("\(name).err").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A fresh signal mask and default handlers: the test runner's threads
        // may block signals, which a child would otherwise inherit.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Self.spawnSetSID | Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
        pid = child
    }

    var stdout: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }
    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    /// Sends SIGKILL (a no-op once the process has exited).
    func kill() {
        if termination == nil { Glibc.kill(pid, SIGKILL) }
    }

    /// Whether the process still runs; once it has ended, it is reaped and its end recorded.
    var isRunning: Bool {
        guard termination == nil else { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return true }
        record(status)
        return false
    }

    /// Waits for the process to end, killing it after `timeout` seconds (then
    /// `timedOut` is true); how it ended.
    @discardableResult
    func wait(timeout: TimeInterval = 120) -> Termination {
        if let termination { return termination }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0, errno != EINTR {
                // Someone else reaped it; nothing more can be known.
                termination = .exited(-1)
                return termination ?? .exited(-1)
            }
            if Date() > deadline, !timedOut {
                timedOut = true
                Glibc.kill(pid, SIGKILL)
            }
            usleep(1_000)
        }
        return record(status)
    }

    /// Records how the process ended from its `waitpid` status.
    @discardableResult
    private func record(_ status: Int32) -> Termination {
        // WIFEXITED and friends are macros Swift does not import.
        let signal = status & 0x7F
        let ended: Termination = signal == 0 ? .exited((status >> 8) & 0xFF) : .killed(signal)
        termination = ended
        return ended
    }

    private(set) var timedOut = false

    /// Removes the output files.
    func removeFiles() {
        unlink(outputPath)
        unlink(errorPath)
    }
}
