import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real second (or third) user of this machine, for tests that play
/// another local user against authcat: a victim and an attacker, each
/// running programs as themselves (`setpriv`). Making a user needs root,
/// which CI has; elsewhere `ensure` throws `LocalUser.NeedsRoot`, and the
/// tests skip, saying why.
public struct LocalUser: Sendable {
    public let name: String
    public let uid: uid_t
    public let gid: gid_t

    /// Why a test cannot play other users here.
    public struct NeedsRoot: Error, CustomStringConvertible {
        public var description: String {
            "these tests create and run as other local users (useradd, setpriv), which needs root; CI runs them as root"
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// What one program run as a user did.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The user `name`, created (a system user with no home and no login)
    /// if it does not exist yet; a user left by an earlier run is reused.
    public static func ensure(_ name: String) throws -> LocalUser {
        // Running as another user (setpriv) needs root as much as making one does.
        guard geteuid() == 0 else { throw NeedsRoot() }
        if let user = lookUp(name) { return user }
        let useradd = Process()
        useradd.executableURL = URL(fileURLWithPath: "/usr/sbin/useradd")
        useradd.arguments = ["--system", "--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin", name]
        useradd.standardOutput = FileHandle.nullDevice
        useradd.standardError = FileHandle.nullDevice
        try useradd.run()
        useradd.waitUntilExit()
        // Status 9: made meanwhile by another test process; either way it is looked up again.
        guard let user = lookUp(name) else {
            throw Failure(description: "useradd \(name) failed (status \(useradd.terminationStatus))")
        }
        return user
    }

    private static func lookUp(_ name: String) -> LocalUser? {
        guard let entry = getpwnam(name) else { return nil }
        return LocalUser(name: name, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
    }

    /// A new folder (mode 0755) that every user can reach: under the
    /// temporary folder if all the folders above it let others through,
    /// else under /tmp. The caller removes it.
    public static func makeReachableFolder(prefix: String) throws -> String {
        let candidates = [FileManager.default.temporaryDirectory.path, "/tmp"]
        let base = candidates.first(where: isReachableByAll) ?? "/tmp"
        let folder = (base as NSString).appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        guard chmod(folder, 0o755) == 0 else {
            throw Failure(description: "chmod \(folder): \(String(cString: strerror(errno)))")
        }
        return folder
    }

    private static func isReachableByAll(_ path: String) -> Bool {
        var current = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        while true {
            var info = stat()
            guard stat(current, &info) == 0, info.st_mode & S_IXOTH != 0 else { return false }
            if current == "/" { return true }
            current = (current as NSString).deletingLastPathComponent
        }
    }

    /// Gives `path` (not following a link) to this user.
    public func own(_ path: String) throws {
        guard lchown(path, uid, gid) == 0 else {
            throw Failure(description: "lchown \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// `executable arguments…` as this user, with no supplementary groups:
    /// `setpriv` from util-linux, part of every Debian system.
    public func process(
        _ executable: String, _ arguments: [String], environment: [String: String],
        in folder: String
    ) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--", executable] + arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        return process
    }

    /// Runs `executable arguments…` as this user to the end, with `stdin`
    /// piped in (or /dev/null), and returns what it printed. Killed after
    /// `timeout` seconds, which then fails: a hang is a failure, not a wait.
    public func run(
        _ executable: String, _ arguments: [String], environment: [String: String], in folder: String,
        stdin: Data? = nil, timeout: TimeInterval = 60
    ) throws -> Result {
        let process = process(executable, arguments, environment: environment, in: folder)
        let output = Pipe()
        let errors = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            try? input.fileHandleForWriting.write(contentsOf: stdin)
            try? input.fileHandleForWriting.close()
        }
        let collected = DispatchGroup()
        let outBytes = Collected()
        let errBytes = Collected()
        DispatchQueue.global().async(group: collected) {
            outBytes.data = output.fileHandleForReading.readDataToEndOfFile()
        }
        DispatchQueue.global().async(group: collected) {
            errBytes.data = errors.fileHandleForReading.readDataToEndOfFile()
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(2_000) }
        if process.isRunning {
            process.terminate()
            kill(process.processIdentifier, SIGKILL)
            throw Failure(
                description:
                    "\(([executable] + arguments).joined(separator: " ")) as \(name) still ran after \(Int(timeout)) s")
        }
        process.waitUntilExit()
        collected.wait()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outBytes.data, as: UTF8.self),
            stderr: String(decoding: errBytes.data, as: UTF8.self))
    }

    /// What one reading thread collected; read only after the group is waited for.
    private final class Collected: @unchecked Sendable {
        var data = Data()
    }
}
