import Foundation

/// Starts `program` (this very binary, for a real command line), detached
/// from the command that asks: in a new session (so Ctrl-C and a closing
/// terminal do not stop it), with standard output and error on /dev/null, no
/// other descriptor inherited, and not waited for. The background sync push
/// and the clipboard clearer both start this way.
public struct DetachedLauncher: Sendable {
    /// The full program, `authcat-cli`: the same version of authcat; nil for
    /// this very binary, found only when something is launched.
    public var program: String?
    /// Whether a thread of this process collects each child's exit. A command
    /// exits before its children, which the system then collects; a program
    /// that runs command lines and lives on (the tests) must collect them
    /// itself, or each lingers as a zombie that still looks alive.
    public var collectsExits: Bool

    public init(program: String? = nil, collectsExits: Bool = false) {
        self.program = program
        self.collectsExits = collectsExits
    }

    /// glibc's POSIX_SPAWN_SETSID (since 2.26); Swift does not see it because
    /// it is declared only under _GNU_SOURCE.
    private static let spawnSetSID: Int16 = 0x80

    /// Why a detached process could not be started: the C library's message.
    struct Failure: Error {
        var reason: String
    }

    /// Spawns `authcat-cli arguments…`.
    /// - Parameter input: bytes for the child's standard input, written into a
    ///   pipe before the child starts, so nothing here ever waits for it to
    ///   read; nil connects /dev/null. Bytes handed over this way never show
    ///   in `ps`, unlike arguments and the environment.
    /// - Throws: `Failure` if the process could not be started, or `input`
    ///   does not fit in a pipe.
    func launch(_ arguments: [String], input: [UInt8]? = nil, environment: [String: String]) throws {
        let executable = program ?? Self.currentExecutable()
        let reader: Int32?
        do {
            reader = try input.map(SpawnParts.filledPipe)
        } catch let failure as SpawnParts.PipeFailure {
            throw Failure(reason: failure.reason)
        }
        defer { if let reader { close(reader) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let reader {
            posix_spawn_file_actions_adddup2(&actions, reader, STDIN_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        }
        for fd in [STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
        }
        // Such as a pipe the caller's caller reads to its end: a child that
        // lives on must not keep it open.
        for fd in SpawnParts.openDescriptors() where fd > STDERR_FILENO && fd != reader {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
        let argv = [executable] + arguments
        var pid = pid_t()
        var result = spawn(
            executable, argv, environment: environment, actions: &actions, flags: Self.spawnSetSID, pid: &pid)
        // Older C libraries reject the flag; the child then calls setsid() itself.
        if result == EINVAL {
            result = spawn(executable, argv, environment: environment, actions: &actions, flags: 0, pid: &pid)
        }
        guard result == 0 else { throw Failure(reason: String(cString: strerror(result))) }
        if collectsExits {
            Thread.detachNewThread { [pid] in
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            }
        }
    }

    private func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String],
        actions: inout posix_spawn_file_actions_t, flags: Int16, pid: inout pid_t
    ) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with default signal handling, whatever this process ignores or catches.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, flags | Int16(POSIX_SPAWN_SETSIGDEF))
        return SpawnParts.withCStrings(arguments) { argv in
            SpawnParts.withCStrings(SpawnParts.entries(of: environment)) { environment in
                posix_spawn(&pid, executable, &actions, &attributes, argv, environment)
            }
        }
    }

    /// The most `input` may hold: what an unprivileged process may make a
    /// pipe hold by default (/proc/sys/fs/pipe-max-size).
    static let maximumInput = SpawnParts.largestPipe

    /// This very binary, so the child runs the same version of authcat.
    static func currentExecutable() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
