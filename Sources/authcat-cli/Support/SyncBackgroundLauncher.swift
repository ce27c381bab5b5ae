import AuthCatCore
import Foundation

/// Starts `authcat --home <vault> sync now --background` detached from the
/// command that changed the vault: in a new session (so Ctrl-C and a closing
/// terminal do not stop it), with standard streams on /dev/null, not waited for.
enum SyncBackgroundLauncher {
    /// glibc's POSIX_SPAWN_SETSID (since 2.26); Swift does not see it because
    /// it is declared only under _GNU_SOURCE.
    private static let spawnSetSID: Int16 = 0x80

    /// Spawns the push; throws only if the process could not be started.
    static func launch(vaultFolder: String) throws {
        let executable = currentExecutable()
        let arguments = [executable, "sync", "now", "--background", "--home", vaultFolder]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
        }
        var result = spawn(executable, arguments, actions: &actions, flags: spawnSetSID)
        // Older C libraries reject the flag; the child then calls setsid() itself.
        if result == EINVAL { result = spawn(executable, arguments, actions: &actions, flags: 0) }
        guard result == 0 else { throw SyncCommandError.cannotStartBackgroundSync(reason: String(cString: strerror(result))) }
    }

    private static func spawn(_ executable: String, _ arguments: [String],
                              actions: inout posix_spawn_file_actions_t, flags: Int16) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with default signal handling, whatever this process ignores or catches.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, flags | Int16(POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { environment.forEach { free($0) } }
        var pid = pid_t()
        return posix_spawn(&pid, executable, &actions, &attributes, argv, &environment)
    }

    /// This very binary, so the push runs the same version of authcat.
    private static func currentExecutable() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
