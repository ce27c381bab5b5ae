import AuthCatTestSupport
import Foundation
import XCTest

/// The fault tests wait for what a command left running (a background push,
/// an rclone) by looking for it in /proc. A process spawned a moment ago
/// must be found, or a test on a busy machine goes on while the push it
/// waits for still runs.
final class ProcessFindingTests: XCTestCase {
    /// Right after `posix_spawn` returns, the child is still inside `execve`
    /// and /proc shows its environment and command line empty (a C loop here
    /// found them so after 99 % of its spawns). Once
    /// `ChildProcesses.waitUntilNoneIsStarting` returns, they show.
    func testAProgramJustSpawnedShowsOnceNoneIsStarting() throws {
        let mark = "AUTHCAT_PROCESS_FINDING=\(UUID().uuidString)"
        for attempt in 1...50 {
            try withSleepJustSpawned(marked: mark) { pid in
                XCTAssertTrue(ChildProcesses.waitUntilNoneIsStarting())
                let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") ?? Data()
                XCTAssertEqual(
                    environment.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }, [mark],
                    "attempt \(attempt)")
            }
        }
    }

    /// As `DetachedLauncher` starts a background push, and as the tests look
    /// for it: `posix_spawn`, then at once the look in /proc.
    func testAProgramJustSpawnedIsFound() throws {
        let mark = "AUTHCAT_PROCESS_FINDING=\(UUID().uuidString)"
        for attempt in 1...50 {
            try withSleepJustSpawned(marked: mark) { pid in
                XCTAssertEqual(
                    ChildProcesses.running(withEnvironment: mark, program: "sleep"), [pid], "attempt \(attempt)")
            }
        }
        XCTAssertEqual(ChildProcesses.running(withEnvironment: mark), [], "every one was stopped")
    }

    /// Runs `body` as soon as `sleep 60` is spawned with only `mark` in its
    /// environment (as `DetachedLauncher` spawns, without waiting), then stops it.
    private func withSleepJustSpawned(marked mark: String, _ body: (pid_t) throws -> Void) throws {
        let arguments = ["/bin/sleep", "60"]
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = [strdup(mark), nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], nil, nil, &argv, &envp)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
        defer {
            kill(pid, SIGKILL)
            waitpid(pid, nil, 0)
        }
        try body(pid)
    }
}
