import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The processes descended from one of ours, read from /proc (Linux; empty elsewhere).
public enum ChildProcesses {
    public static func descendants(of root: Int32) -> [Int32] {
        var parents: [Int32: Int32] = [:]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // After "pid (comm)" come the state and then the parent id.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = Int32(fields[1]) { parents[pid] = parent }
        }
        var found: [Int32] = []
        var frontier = [root]
        while let current = frontier.popLast() {
            let children = parents.filter { $0.value == current }.map(\.key)
            found += children
            frontier += children
        }
        return found
    }

    /// The processes whose environment holds `entry` (`NAME=value`) and whose
    /// program name (`/proc/PID/comm`) is `program`, if given: what a test
    /// started, found by a variable only it sets, wherever they were reparented.
    public static func running(withEnvironment entry: String, program: String? = nil) -> [Int32] {
        waitUntilNoneIsStarting()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
                environment.split(separator: 0).contains(where: { $0.elementsEqual(entry.utf8) })
            else { return false }
            guard let program else { return true }
            let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            return name.trimmingCharacters(in: .whitespacesAndNewlines) == program
        }
    }

    /// Waits, up to `timeout`, until no process is in the middle of starting a
    /// program. For a moment after `posix_spawn` has returned to the parent,
    /// the child is still inside `execve`, and /proc shows its command line
    /// and environment as empty until the kernel has loaded the new program:
    /// a C loop here read an empty command line right after 99 % of its
    /// spawns. A test that looks in /proc for what a command started (a
    /// background push, an rclone) calls this first, or a busy machine makes
    /// it miss a process that is running. Every process counts, not only the
    /// test's own: nothing in /proc says whose a nameless one is.
    /// - Returns: false, having said which on standard error, if some process
    ///   was still nameless at the end.
    @discardableResult
    public static func waitUntilNoneIsStarting(timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while let starting = programsStarting().first {
            guard Date() < deadline else {
                FileHandle.standardError.write(
                    Data("ChildProcesses: \(starting) still starting after \(timeout) s\n".utf8))
                return false
            }
            usleep(1_000)
        }
        return true
    }

    /// How long after its creation a nameless process still counts as
    /// starting: far longer than any `execve` takes on a busy machine, and
    /// short enough that a process without a name for other reasons (one
    /// started with no environment, one blocked while it exits) holds no
    /// wait for long.
    private static let startingAge = 5.0

    /// Young live user processes whose command line or environment reads
    /// empty: those inside `execve`, which sets the command line and then the
    /// environment. Kernel threads (`PF_KTHREAD` in the flags) never have
    /// either, and zombies have lost theirs. "PID (comm)" each.
    private static func programsStarting() -> [String] {
        let kernelThread = 0x0020_0000
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard
            let uptime = (try? String(contentsOfFile: "/proc/uptime", encoding: .utf8))?
                .split(separator: " ").first.flatMap({ Double($0) })
        else { return [] }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { entry in
            guard Int32(entry) != nil,
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            // After "pid (comm)": the state, the parent, the group, the session, the terminal,
            // its group, the flags (index 6), ..., and the start time in ticks since boot (19).
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 19, !["Z", "X"].contains(fields[0]),
                let flags = Int(fields[6]), flags & kernelThread == 0,
                let started = Double(fields[19]), uptime - started / ticksPerSecond < startingAge
            else { return false }
            return ["cmdline", "environ"].contains { file in
                FileManager.default.contents(atPath: "/proc/\(entry)/\(file)")?.isEmpty == true
            }
        }.map { entry in
            let name = (try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8)) ?? ""
            return "\(entry) (\(name.trimmingCharacters(in: .whitespacesAndNewlines)))"
        }
    }
}
