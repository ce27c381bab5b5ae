import AuthCatTestSupport
import Foundation
import GRDB
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// What one finished `authcat` run did.
struct FaultRun {
    var termination: Termination
    var stdout: String
    var stderr: String

    var succeeded: Bool { termination == .exited(0) }
    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    /// The error on standard error as an `authcat: …` line, also when the
    /// command ran with `--json` and wrote it as a JSON object; nil for
    /// a JSON line that is not an error.
    var errorLine: String? {
        let text = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("{") else { return text }
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            object["level"] as? String == "error", let message = object["message"] as? String
        else { return nil }
        return "authcat: " + message
    }
}

/// A test case of the fault suite: a scratch folder of its own, vault folders
/// in it, the built programs run as real processes (`SpawnedAuthCat`), and
/// the checks every fault ends with: SQLite's integrity check, the vault
/// opening, the accounts it lists.
class FaultTestCase: XCTestCase {
    /// The RFC 6238 test secret ("12345678901234567890") in Base32.
    static let rfcSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
    /// Its 6-digit TOTP code at t = 59 s (RFC 6238's 94287082, cut to 6 digits).
    static let rfcCodeAt59 = "287082"
    static let passphrase = "fault suite passphrase"

    private var scratchFolder: TemporaryFolder?
    private(set) var scratch: URL!
    private var spawned: [SpawnedAuthCat] = []
    var random = SeededRandom(seed: 0)

    /// The `authcat` front SwiftPM built next to the tests (on Linux the test
    /// bundle URL is the products folder itself), or the one in the folder
    /// `AUTHCAT_FAULT_BIN` names, to try other builds (a release, an older commit).
    static let executable: String = {
        if let folder = ProcessInfo.processInfo.environment["AUTHCAT_FAULT_BIN"], !folder.isEmpty {
            return URL(fileURLWithPath: folder).appendingPathComponent("authcat").path
        }
        let bundle = Bundle(for: FaultTestCase.self).bundleURL
        let candidates = [bundle.deletingLastPathComponent(), bundle].map { $0.appendingPathComponent("authcat").path }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }()

    override func setUpWithError() throws {
        try super.setUpWithError()
        let folder = try TemporaryFolder("fault")
        scratchFolder = folder
        scratch = folder.url
        try write(Self.passphrase + "\n", to: passphraseFile)
        try FileManager.default.createDirectory(at: userHome, withIntermediateDirectories: true)
        random = FaultSettings.random(for: name)
    }

    override func tearDown() {
        for child in spawned where child.termination == nil {
            child.kill()
            child.wait(timeout: 10)
        }
        if let scratch {
            waitForStragglers(under: scratch.path, timeout: 20)
            scratchFolder?.remove()
        }
        super.tearDown()
    }

    var passphraseFile: URL { scratch.appendingPathComponent("passphrase") }
    var userHome: URL { scratch.appendingPathComponent("user-home") }

    /// The environment every run gets: nothing from the machine running the tests.
    var baseEnvironment: [String: String] {
        ProgramEnvironment.clean(home: userHome.path)
    }

    /// A new, not yet existing vault folder in the scratch folder.
    func makeHome(_ label: String = "vault") -> URL {
        scratch.appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))", isDirectory: true)
    }

    func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
        chmod(url.path, 0o600)
    }

    /// A file holding `text`, for a run's standard input.
    func inputFile(_ text: String) throws -> String {
        let url = scratch.appendingPathComponent("in-\(UUID().uuidString)")
        try write(text, to: url)
        return url.path
    }

    /// Starts `authcat --home HOME arguments…` without waiting.
    func spawn(
        _ home: URL, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]
    ) throws -> SpawnedAuthCat {
        let input = try stdin.map { try inputFile($0) }
        let child = try SpawnedAuthCat(
            executable: Self.executable, arguments: ["--home", home.path] + arguments,
            environment: baseEnvironment.merging(environment) { $1 }, stdinPath: input,
            scratch: scratch)
        spawned.append(child)
        return child
    }

    /// Runs `authcat --home HOME arguments…` to its end.
    @discardableResult
    func run(
        _ home: URL, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
        timeout: TimeInterval = 120
    ) throws -> FaultRun {
        let child = try spawn(home, arguments, stdin: stdin, environment: environment)
        let termination = child.wait(timeout: timeout)
        defer { child.removeFiles() }
        return FaultRun(termination: termination, stdout: child.stdout, stderr: child.stderr)
    }

    /// Runs a command that must succeed.
    @discardableResult
    func succeed(
        _ home: URL, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> FaultRun {
        let result = try run(home, arguments, stdin: stdin, environment: environment)
        XCTAssertEqual(
            result.termination, .exited(0),
            "authcat \(arguments.joined(separator: " ")) failed: \(result.stderr)", file: file, line: line)
        return result
    }

    /// Adds a TOTP account (`issuer:name`), asserting success.
    func add(
        _ home: URL, _ name: String, issuer: String = "Fault", secret: String = rfcSecret, _ options: [String] = [],
        environment: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try succeed(
            home, ["add", name, "--issuer", issuer] + options, stdin: secret + "\n", environment: environment,
            file: file, line: line)
    }

    /// The accounts `list --json` shows (none when it says there are none,
    /// the vault missing or empty), or nil with the reason when it fails.
    func accounts(_ home: URL, environment: [String: String] = [:]) throws -> Result<[ListedAccount], ListFailure> {
        let result = try run(home, ["list", "--json"], environment: environment)
        if result.termination == .exited(1), result.stderrLines.count == 1,
            result.stderr.contains(#""message":"no accounts in "#)
        {
            return .success([])
        }
        guard result.succeeded else { return .failure(ListFailure(run: result)) }
        guard let objects = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [[String: Any]]
        else {
            return .failure(ListFailure(run: result))
        }
        return .success(objects.map(ListedAccount.init))
    }

    /// The accounts, failing the test when the vault cannot be listed.
    func listed(_ home: URL, file: StaticString = #filePath, line: UInt = #line) throws -> [ListedAccount] {
        switch try accounts(home) {
        case .success(let accounts): return accounts
        case .failure(let failure):
            XCTFail("list failed: \(failure)", file: file, line: line)
            return []
        }
    }

    /// SQLite's `PRAGMA integrity_check` on a database file; nil when it says
    /// "ok" or the file does not exist, else what it reported. The database is
    /// opened read-only, waiting for writers, so the check itself changes nothing.
    func integrityProblem(_ database: URL) -> String? {
        guard FileManager.default.fileExists(atPath: database.path) else { return nil }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(30)
            let queue = try DatabaseQueue(path: database.path, configuration: configuration)
            defer { try? queue.close() }
            let lines = try queue.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
            return lines == ["ok"] ? nil : lines.joined(separator: "; ")
        } catch {
            return "integrity check failed to run: \(error)"
        }
    }

    /// Every SQLite database in a vault folder (the vault and sync's state).
    func integrityProblems(in home: URL) -> [String] {
        ["vault.sqlite", "sync.sqlite"].compactMap { name in
            integrityProblem(home.appendingPathComponent(name)).map { "\(name): \($0)" }
        }
    }

    /// Waits until no process runs with `path` in its command line (background
    /// pushes started by the commands under test), so that what a test checks
    /// or removes is no longer being written.
    func waitForStragglers(under path: String, timeout: TimeInterval) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, !processes(mentioning: path).isEmpty { usleep(50_000) }
    }

    func processes(mentioning path: String) -> [Int32] {
        ChildProcesses.waitUntilNoneIsStarting()
        let own = getpid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard pid != own, let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else {
                return false
            }
            return String(decoding: data, as: UTF8.self).contains(path)
        }
    }

    /// Whether an error message leaks SQLite's own text rather than saying what happened.
    static func hasRawSQLiteText(_ message: String) -> Bool {
        let raw = [
            "SQLite error", "SQLITE_", "database or disk is full", "UNIQUE constraint", "no such table",
            "grdb_migrations", "database is locked", "disk I/O error", "file is not a database",
        ]
        return raw.contains { message.contains($0) }
    }
}

/// One account as `list --json` shows it.
struct ListedAccount: Equatable {
    var id: String
    var issuer: String
    var name: String
    var tags: [String]
    var counter: Int?

    var label: String { "\(issuer):\(name)" }

    init(_ object: [String: Any]) {
        id = object["id"] as? String ?? ""
        issuer = object["issuer"] as? String ?? ""
        name = object["name"] as? String ?? ""
        tags = (object["tags"] as? [String] ?? []).sorted()
        counter = object["counter"] as? Int
    }
}

struct ListFailure: Error, CustomStringConvertible {
    var run: FaultRun
    var description: String { "\(run.termination): \(run.stderr.trimmingCharacters(in: .whitespacesAndNewlines))" }
}
