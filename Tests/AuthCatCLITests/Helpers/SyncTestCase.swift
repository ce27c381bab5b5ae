import AuthCatTestSupport
import Foundation
import XCTest

/// A test case with several devices (each its own `authcat` home) sharing a
/// folder remote in a fresh temporary folder, and helpers to drive them.
///
/// Every device reads the sync passphrase from `AUTHCAT_SYNC_PASSPHRASE_FILE`.
/// A subclass of a scenario class may share a WebDAV server (lighttpd on
/// loopback) or an rclone remote instead (`sharedRemoteKind`): the same
/// steps then run on that remote, its objects still in a folder here.
class SyncTestCase: XCTestCase {
    static let passphrase = "correct horse battery staple"
    static let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

    private var devices: [AuthCatRunner] = []
    private var children: [Process] = []
    /// Scratch space for the remote, passphrase and recovery key files.
    private(set) var scratch: URL!
    private var scratchFolder: TemporaryFolder?

    /// The network remote the devices share instead of a folder; nil for a folder.
    class var sharedRemoteKind: TestNetworkRemote.Kind? { nil }
    private var sharedRemote: TestNetworkRemote?

    /// The folder that holds the remote's objects.
    var remoteFolder: URL {
        sharedRemote.map { URL(fileURLWithPath: $0.folder, isDirectory: true) }
            ?? scratch.appendingPathComponent("remote", isDirectory: true)
    }
    /// `file:///…/remote`, or the network remote's location.
    var remoteURL: String { sharedRemote?.location ?? "file://" + remoteFolder.path }
    var passphraseFile: URL { scratch.appendingPathComponent("sync-passphrase") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let folder = try TemporaryFolder("sync")
        scratchFolder = folder
        scratch = folder.url
        try write(Self.passphrase + "\n", to: passphraseFile)
        if let kind = Self.sharedRemoteKind { sharedRemote = try TestNetworkRemote(kind, scratch: scratch) }
    }

    override func tearDown() {
        for child in children where child.isRunning {
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
        }
        devices.forEach { $0.removeFiles() }
        sharedRemote?.stop()
        scratchFolder?.remove()
        super.tearDown()
    }

    /// A new device with its own empty home.
    func makeDevice() throws -> AuthCatRunner {
        let device = try AuthCatRunner()
        device.environment["AUTHCAT_SYNC_PASSPHRASE_FILE"] = passphraseFile.path
        device.environment.merge(sharedRemote?.environment ?? [:]) { $1 }
        devices.append(device)
        return device
    }

    func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
        chmod(url.path, 0o600)
    }

    /// Runs a command that must succeed; returns its stdout.
    @discardableResult
    func succeed(
        _ device: AuthCatRunner, _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        let result = try device.run(arguments, stdin: stdin, environment: environment)
        XCTAssertEqual(
            result.status, 0, "authcat \(arguments.joined(separator: " ")) failed: \(result.stderr)", file: file,
            line: line)
        return result.stdout
    }

    /// Background pushes of `device` running now, found in /proc. A command
    /// spawns its push before it exits, so right after the command returns
    /// a push it started is either running (seen here, once it has finished
    /// starting: `ChildProcesses.waitUntilNoneIsStarting`) or done (seen on the remote).
    func runningPushes(of device: AuthCatRunner) -> [String] {
        ChildProcesses.waitUntilNoneIsStarting()
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return processes.filter { $0.allSatisfy(\.isNumber) }.compactMap { pid in
            guard let raw = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
            let words = raw.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return words.contains("--background") && words.contains(device.home.path) ? pid : nil
        }
    }

    /// Adds a TOTP account.
    func add(
        _ device: AuthCatRunner, _ name: String, issuer: String = "Example", secret: String = SyncTestCase.secret,
        _ options: [String] = [], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try succeed(
            device, ["add", name, "--issuer", issuer] + options, stdin: Data("\(secret)\n".utf8), file: file, line: line
        )
    }

    /// The device's accounts as sorted `issuer:name` labels; none when it has none.
    func labels(_ device: AuthCatRunner, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let none = try device.run(["list", "--json"])
        if none.status == 1, none.stderr.contains(#""message":"no accounts in "#) { return [] }
        let output = try succeed(device, ["list", "--json"], file: file, line: line)
        let accounts = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]], file: file, line: line)
        return accounts.map { "\($0["issuer"] as? String ?? ""):\($0["name"] as? String ?? "")" }.sorted()
    }

    /// `sync enable` on the shared folder remote (or `remote`), asserting success.
    @discardableResult
    func enable(
        _ device: AuthCatRunner, remote: String? = nil, _ options: [String] = [], environment: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        try succeed(
            device, ["sync", "enable", "--remote", remote ?? remoteURL] + options, environment: environment, file: file,
            line: line)
    }

    /// `sync status --json` and its exit status.
    func status(
        _ device: AuthCatRunner, offline: Bool = false, environment: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (status: Int32, json: [String: Any]) {
        let result = try device.run(
            ["sync", "status", "--json"] + (offline ? ["--offline"] : []), environment: environment)
        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            "status printed no JSON: \(result.stdout) \(result.stderr)", file: file, line: line)
        XCTAssertEqual(
            (json["exit_code"] as? Int).map(Int32.init), result.status, "the exit status is the document's", file: file,
            line: line)
        return (result.status, json)
    }

    /// Every file under the remote folder, as sorted relative paths.
    func remoteFiles() -> [String] {
        let root = remoteFolder.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        return walker.compactMap { $0 as? String }.filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder)
                && !isFolder.boolValue
        }.sorted()
    }

    /// Polls `condition` until it holds or `timeout` passes; true if it held.
    /// The timeout guards against a hang and claims no speed: what is awaited
    /// comes in well under a second on an idle machine, and a machine busy
    /// with other work must not fail a test.
    func eventually(
        within timeout: TimeInterval = 60, every interval: useconds_t = 50_000,
        _ condition: () throws -> Bool
    ) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if try condition() { return true }
            usleep(interval)
        } while Date() < deadline
        return try condition()
    }

    /// Starts `authcat --home … arguments` without waiting, its output going to
    /// files in the scratch folder; it is killed at the end of the test if still running.
    func start(_ device: AuthCatRunner, _ arguments: [String]) throws -> RunningAuthCat {
        let running = try RunningAuthCat(device: device, arguments: arguments, folder: scratch)
        children.append(running.process)
        return running
    }
}
