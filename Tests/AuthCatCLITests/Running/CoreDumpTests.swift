import Foundation
import XCTest

/// Both programs keep their memory, which holds keys, out of core dumps
/// (`ProcessHardening`): shown on the built programs, run as an unprivileged
/// user (`nobody`, through util-linux `setpriv`) so that the kernel's marks of
/// a process that may not be dumped can be seen in `/proc`, and crashed with a
/// core limit the shell raised to unlimited beforehand.
final class CoreDumpTests: XCTestCase {
    private static let nobody: uid_t = 65534
    private var folder: URL!
    private var children: [Process] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard getuid() == 0 else { throw XCTSkip("needs root, to run the programs as another user") }
        folder = URL(fileURLWithPath: "/tmp/authcat-core-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    }

    override func tearDown() {
        for child in children where child.isRunning {
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
        }
        if let folder { try? FileManager.default.removeItem(at: folder) }
        super.tearDown()
    }

    func testACrashOfAnAuthcatProcessWaitingForASecretLeavesNoCore() throws {
        let control = try start(["/bin/cat"], in: ownedFolder("control"))
        let authcat = try start([AuthCatRunner.executableURL.path, "--home", ownedFolder("vault").path, "add", "alice"],
                                in: ownedFolder("work"))
        // The front hands `add` to authcat-cli, finding it through /proc/self/exe after it made itself undumpable.
        let marks = try XCTUnwrap(waitForMarks(of: authcat.process, program: "authcat-cli"), "authcat-cli never showed both marks")
        XCTAssertEqual(marks.coreLimit, "0 0")
        XCTAssertEqual(marks.owner, 0, "/proc/PID of an undumpable process belongs to root")
        let controlMarks = try XCTUnwrap(waitForMarks(of: control.process, program: "cat", hardened: false))
        XCTAssertEqual(controlMarks.owner, Self.nobody, "a process that may be dumped keeps its own /proc/PID")

        crash(control.process)
        crash(authcat.process)
        let controlCores = try cores(in: control.folder)
        try XCTSkipIf(controlCores.isEmpty, "this kernel writes no core file of a crashed process to its folder (core_pattern \(corePattern))")
        XCTAssertEqual(try cores(in: authcat.folder), [], "authcat-cli left a core")
    }

    func testTheQuickFrontIsUndumpableFromItsStart() throws {
        // `list --json` is answered by the front; with its output unread, it waits on a full pipe.
        let vault = try ownedFolder("vault")
        let names = (0..<400).map { "otpauth://totp/Example:user\($0)?secret=JBSWY3DPEHPK3PXP" }.joined(separator: "\n")
        let file = folder.appendingPathComponent("accounts.txt")
        try Data(names.utf8).write(to: file)
        chmod(file.path, 0o644)
        let importer = try start([AuthCatRunner.executableURL.path, "--home", vault.path, "import", file.path], in: ownedFolder("import"),
                                 input: false)
        importer.process.waitUntilExit()
        XCTAssertEqual(importer.process.terminationStatus, 0)

        let front = try start([AuthCatRunner.executableURL.path, "--home", vault.path, "list", "--json"], in: ownedFolder("work"))
        let marks = try XCTUnwrap(waitForMarks(of: front.process, program: "authcat"), "the front never showed both marks")
        XCTAssertEqual(marks.coreLimit, "0 0")
        XCTAssertEqual(marks.owner, 0)
        crash(front.process)
        XCTAssertEqual(try cores(in: front.folder), [])
    }

    // MARK: - Helpers

    private struct Started {
        var process: Process
        var folder: URL
    }

    private struct Marks {
        /// The soft and hard "Max core file size" of /proc/PID/limits.
        var coreLimit: String
        /// The owner of /proc/PID/environ.
        var owner: uid_t
    }

    private var corePattern: String {
        (try? String(contentsOfFile: "/proc/sys/kernel/core_pattern", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
    }

    /// A folder that belongs to `nobody`.
    private func ownedFolder(_ name: String) throws -> URL {
        let url = folder.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        XCTAssertEqual(chown(url.path, Self.nobody, Self.nobody), 0)
        return url
    }

    /// Runs `command` as `nobody` in `folder`, with the core limit raised first
    /// and, with `input`, standard input a pipe left open, so a reader waits.
    private func start(_ command: [String], in folder: URL, input: Bool = true) throws -> Started {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups", "--",
                             "/bin/sh", "-c", "ulimit -c unlimited 2>/dev/null; exec \"$0\" \"$@\""] + command
        process.currentDirectoryURL = folder
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "LANG": "C.UTF-8"]
        process.standardInput = input ? Pipe() : FileHandle.nullDevice
        process.standardOutput = Pipe()
        process.standardError = FileHandle.nullDevice
        try process.run()
        children.append(process)
        return Started(process: process, folder: folder)
    }

    /// Waits for `process` to run `program` and, when `hardened`, to show both
    /// marks of a process kept out of core dumps; nil if it never does (or exits).
    private func waitForMarks(of process: Process, program: String, hardened: Bool = true) -> Marks? {
        let proc = "/proc/\(process.processIdentifier)"
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline {
            if let cmdline = FileManager.default.contents(atPath: "\(proc)/cmdline"),
               let first = cmdline.split(separator: 0).first, String(decoding: first, as: UTF8.self).hasSuffix("/" + program) || String(decoding: first, as: UTF8.self) == program,
               let limits = try? String(contentsOfFile: "\(proc)/limits", encoding: .utf8),
               let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max core file size") }) {
                var status = stat()
                let words = line.split(separator: " ", omittingEmptySubsequences: true)
                let coreLimit = words.dropFirst(4).prefix(2).joined(separator: " ")
                if stat("\(proc)/environ", &status) == 0, !hardened || (coreLimit == "0 0" && status.st_uid == 0) {
                    return Marks(coreLimit: coreLimit, owner: status.st_uid)
                }
            }
            usleep(20_000)
        }
        return nil
    }

    private func crash(_ process: Process) {
        kill(process.processIdentifier, SIGSEGV)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
    }

    private func cores(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("core") }
    }
}
