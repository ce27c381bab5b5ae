import Foundation
import XCTest

/// Both programs keep their memory, which holds keys, out of core dumps
/// (`ProcessHardening`): shown on the built programs, run as an unprivileged
/// user (`nobody`, through util-linux `setpriv`) so that the kernel's marks of
/// a process that may not be dumped can be seen in `/proc`, and crashed with
/// `SIGSEGV` after the shell raised the core limit to unlimited. The kernel
/// says in the exit status whether it dumped a core (`WCOREDUMP`); a control
/// process run the same way shows that it would have.
final class CoreDumpTests: XCTestCase {
    private static let nobody: uid_t = 65534
    private var folder: URL!
    private var children: [Child] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard getuid() == 0 else { throw XCTSkip("needs root, to run the programs as another user") }
        folder = URL(fileURLWithPath: "/tmp/authcat-core-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    }

    override func tearDown() {
        children.forEach { $0.kill() }
        if let folder { try? FileManager.default.removeItem(at: folder) }
        super.tearDown()
    }

    func testACrashOfAnAuthcatProcessWaitingForASecretLeavesNoCore() throws {
        let control = try start(["/bin/cat"], in: ownedFolder("control"))
        let authcat = try start(
            [AuthCatRunner.executableURL.path, "--home", ownedFolder("vault").path, "add", "alice"],
            in: ownedFolder("work"))
        // The front hands `add` to authcat-cli, finding it through /proc/self/exe after it made itself undumpable.
        let marks = try XCTUnwrap(
            waitForMarks(of: authcat, program: "authcat-cli"), "authcat-cli never showed both marks")
        XCTAssertEqual(marks.coreLimit, "0 0")
        XCTAssertEqual(marks.owner, 0, "/proc/PID of an undumpable process belongs to root")
        let controlMarks = try XCTUnwrap(waitForMarks(of: control, program: "cat", hardened: false))
        XCTAssertEqual(controlMarks.owner, Self.nobody, "a process that may be dumped keeps its own /proc/PID")

        let controlDumped = try control.crash()
        XCTAssertFalse(try authcat.crash(), "the kernel dumped authcat-cli's memory")
        XCTAssertEqual(try cores(in: authcat.folder), [], "authcat-cli left a core")
        try XCTSkipUnless(
            controlDumped,
            "this system dumps no core of a crashed process (core_pattern \(corePattern)), so the control proves nothing"
        )
        XCTAssertFalse(
            try cores(in: control.folder).isEmpty || corePattern.hasPrefix("|"),
            "the control's core is where authcat's would be")
    }

    func testTheQuickFrontIsUndumpableFromItsStart() throws {
        // `list --json` is answered by the front; with its output unread, it waits on a full pipe.
        let vault = try ownedFolder("vault")
        let names = (0..<2000).map { "otpauth://totp/Example:user\($0)?secret=JBSWY3DPEHPK3PXP" }.joined(
            separator: "\n")
        let file = folder.appendingPathComponent("accounts.txt")
        try Data(names.utf8).write(to: file)
        chmod(file.path, 0o644)
        let importer = try start(
            [AuthCatRunner.executableURL.path, "--home", vault.path, "import", file.path], in: ownedFolder("import"))
        XCTAssertEqual(try importer.wait(), 0, "the import failed")

        let front = try start(
            [AuthCatRunner.executableURL.path, "--home", vault.path, "list", "--json"], in: ownedFolder("work"))
        let marks = try XCTUnwrap(waitForMarks(of: front, program: "authcat"), "the front never showed both marks")
        XCTAssertEqual(marks.coreLimit, "0 0")
        XCTAssertEqual(marks.owner, 0)
        XCTAssertFalse(try front.crash(), "the kernel dumped the front's memory")
        XCTAssertEqual(try cores(in: front.folder), [])
    }

    // MARK: - Helpers

    private struct Marks {
        /// The soft and hard "Max core file size" of /proc/PID/limits.
        var coreLimit: String
        /// The owner of /proc/PID/environ.
        var owner: uid_t
    }

    /// A process started with `posix_spawn`, reaped by the test itself (so the
    /// exit status keeps the kernel's core-dumped bit): its standard input and
    /// output are pipes nobody writes or reads, so a reader or a writer waits.
    private final class Child {
        let pid: pid_t
        let folder: URL
        private let pipes: [Int32]
        private var reaped = false

        init(_ arguments: [String], in folder: URL) throws {
            self.folder = folder
            var input: [Int32] = [0, 0]
            var output: [Int32] = [0, 0]
            guard pipe(&input) == 0, pipe(&output) == 0 else { throw POSIXError(.EMFILE) }
            pipes = input + output
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, input[0], 0)
            posix_spawn_file_actions_adddup2(&actions, output[1], 1)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            // A debug build's Swift runtime catches SIGSEGV to print a backtrace
            // (the static release build has no backtracer); on a busy machine that
            // held a crashed process past a minute. What is tested is the kernel's
            // core dump, which comes after, so the backtracer is turned off.
            let variables = ["PATH=/usr/bin:/bin", "HOME=" + folder.path, "LANG=C.UTF-8", "SWIFT_BACKTRACE=enable=no"]
            let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            let environment: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
            defer { (argv + environment).forEach { free($0) } }
            var pid: pid_t = 0
            let status = posix_spawn(&pid, arguments[0], &actions, nil, argv, environment)
            guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL) }
            self.pid = pid
        }

        /// Waits for the process to end by itself; its exit status.
        func wait() throws -> Int32 {
            let status = try reap()
            return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
        }

        /// Sends SIGSEGV and reaps the process; whether the kernel dumped a core (`WCOREDUMP`).
        /// The signal is sent again until the process ends: one sent while the
        /// Swift runtime or Dispatch is still starting threads was seen to be lost.
        func crash() throws -> Bool {
            var status: Int32 = 0
            var ended = false
            let deadline = Date().addingTimeInterval(60)
            repeat {
                Glibc.kill(pid, SIGSEGV)
                usleep(50_000)
                ended = waitpid(pid, &status, WNOHANG) == pid
            } while !ended && Date() < deadline
            guard ended else {
                XCTFail("SIGSEGV did not end process \(pid)")
                return true
            }
            (reaped, self.status) = (true, status)
            XCTAssertEqual(status & 0x7f, SIGSEGV, "it ended by SIGSEGV")
            return status & 0x80 != 0
        }

        func kill() {
            if !reaped {
                Glibc.kill(pid, SIGKILL)
                _ = try? reap()
            }
            pipes.forEach { close($0) }
        }

        private var status: Int32?

        private func reap() throws -> Int32 {
            if let status { return status }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 {
                guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECHILD) }
            }
            reaped = true
            self.status = status
            return status
        }

        /// Whether it runs still: not reaped, and not a zombie (`/proc/PID/stat`'s state after the name).
        var isRunning: Bool {
            guard !reaped, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let nameEnd = stat.lastIndex(of: ")")
            else { return false }
            return !stat[nameEnd...].dropFirst(2).hasPrefix("Z")
        }
    }

    private var corePattern: String {
        (try? String(contentsOfFile: "/proc/sys/kernel/core_pattern", encoding: .utf8))?.trimmingCharacters(
            in: .whitespacesAndNewlines) ?? "?"
    }

    /// A folder that belongs to `nobody`.
    private func ownedFolder(_ name: String) throws -> URL {
        let url = folder.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        XCTAssertEqual(chown(url.path, Self.nobody, Self.nobody), 0)
        return url
    }

    /// Runs `command` as `nobody` in `folder`, with the core limit raised first.
    private func start(_ command: [String], in folder: URL) throws -> Child {
        let child = try Child(
            [
                "/usr/bin/setpriv", "--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups", "--",
                "/bin/sh", "-c", "cd \"$0\" && ulimit -c unlimited 2>/dev/null; exec \"$@\"", folder.path,
            ] + command,
            in: folder)
        children.append(child)
        return child
    }

    /// Waits for `child` to run `program` and, when `hardened`, to show both
    /// marks of a process kept out of core dumps; nil if it never does (or exits).
    private func waitForMarks(of child: Child, program: String, hardened: Bool = true) -> Marks? {
        let proc = "/proc/\(child.pid)"
        let deadline = Date().addingTimeInterval(60)
        while child.isRunning, Date() < deadline {
            if let cmdline = FileManager.default.contents(atPath: "\(proc)/cmdline"),
                let first = cmdline.split(separator: 0).first.map({ String(decoding: $0, as: UTF8.self) }),
                first == program || first.hasSuffix("/" + program),
                let limits = try? String(contentsOfFile: "\(proc)/limits", encoding: .utf8),
                let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max core file size") })
            {
                var status = stat()
                let coreLimit = line.split(separator: " ").dropFirst(4).prefix(2).joined(separator: " ")
                if stat("\(proc)/environ", &status) == 0, !hardened || (coreLimit == "0 0" && status.st_uid == 0) {
                    return Marks(coreLimit: coreLimit, owner: status.st_uid)
                }
            }
            usleep(20_000)
        }
        return nil
    }

    private func cores(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("core") }
    }
}
