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
}
