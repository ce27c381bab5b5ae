import AuthCatTestSupport
import Foundation
import XCTest

/// What one run of the `authcat` binary did. (Not how long it took: timings
/// are scripts/bench's, never a test's.)
struct AuthCatResult {
    var status: Int32
    var stdout: String
    var stderr: String

    var stdoutLines: [String] {
        stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastIfEmpty()
    }
    var stderrLines: [String] {
        stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastIfEmpty()
    }

    /// stdout parsed as JSON.
    func json() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(stdout.utf8))
    }
}

/// Runs authcat command lines the way a user or a script does: its own vault
/// folder (`--home`), a controlled environment (no HOME, XDG or AUTHCAT_*
/// variables leak in from the machine running the tests), bytes on stdin,
/// and stdout, stderr and the exit status captured.
///
/// `run` calls the command line's entry point in this process (see
/// `AuthCatRunner+InProcess.swift`); `runAsProcess`, `runInTerminal` and
/// `runAsProcess(program:)` start the built programs, for what is about processes:
/// the quick front, terminals, signals, detached work, concurrent writers.
///
/// Each instance owns a fresh temporary folder; call `removeFiles()` in `tearDown`.
/// `@unchecked Sendable`: its settings are made before any run, and a run
/// only reads them, so several threads may run the same instance at once
/// (in-process runs then take turns; processes run side by side).
final class AuthCatRunner: @unchecked Sendable {
    private let folder: TemporaryFolder
    /// The temporary folder of this instance: `home` and scratch files live in it.
    var root: URL { folder.url }
    /// The vault folder passed as `--home`.
    let home: URL
    /// The environment every run starts from; tests may add to it.
    var environment: [String: String]

    init() throws {
        // The files tests write (passphrase and password files above all) are
        // the user's alone, as a careful user's are: a secret file others can
        // read gets a warning (issue 33 §16), which its tests make on purpose.
        umask(0o077)
        folder = try TemporaryFolder("cli")
        let root = folder.url
        home = root.appendingPathComponent("vault", isDirectory: true)
        let userHome = root.appendingPathComponent("user-home", isDirectory: true)
        try FileManager.default.createDirectory(at: userHome, withIntermediateDirectories: true)
        environment = ProgramEnvironment.clean(home: userHome.path)
    }

    func removeFiles() {
        folder.remove()
    }

    /// The `authcat` binary SwiftPM built next to the test bundle: on macOS the
    /// bundle is a folder in the products folder; on Linux the tests are an
    /// executable in it, and the bundle URL is the products folder itself.
    static let executableURL: URL = {
        let bundle = Bundle(for: AuthCatRunner.self).bundleURL
        let candidates = [bundle.deletingLastPathComponent(), bundle].map { $0.appendingPathComponent("authcat") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    /// util-linux `setsid`, part of every Debian system.
    private static let setsid = "/usr/bin/setsid"

    var databaseURL: URL { home.appendingPathComponent("vault.sqlite") }
    var keyFileURL: URL { home.appendingPathComponent("vault.key") }

    /// Runs the `authcat` program, `authcat --home HOME arguments…`, as a process.
    /// - Parameters:
    ///   - stdin: bytes to pipe in; nil connects /dev/null.
    ///   - environment: added to (and overriding) `self.environment`.
    ///   - withHome: false leaves `--home` out, to test the environment variables.
    @discardableResult
    func runAsProcess(
        _ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:],
        withHome: Bool = true, timeout: TimeInterval = 60
    ) throws -> AuthCatResult {
        let authcatArguments = (withHome ? ["--home", home.path] : []) + arguments
        return try launch(authcatArguments, input: stdin.map { [$0] }, environment: extra, timeout: timeout)
    }

    /// Runs `authcat --home HOME arguments…` on a pseudo-terminal (util-linux
    /// `script`), so that it prompts on /dev/tty and sees a terminal on stdout.
    /// Each of `typing` is typed once a prompt shows (see `TerminalTranscript`),
    /// as a person answers a prompt only once it appears. Output comes back
    /// with the terminal's `\r\n` turned into `\n`; the typed text appears in
    /// it only if echoed. `atPrompt` is called with the index of each of
    /// `typing` while its prompt waits, before it is typed.
    @discardableResult
    func runInTerminal(
        _ arguments: [String], typing: [String] = [], environment extra: [String: String] = [:],
        timeout: TimeInterval = 60, atPrompt: @escaping @Sendable (Int) -> Void = { _ in }
    ) throws -> AuthCatResult {
        let command = ([Self.executableURL.path, "--home", home.path] + arguments).map(Self.shellQuoted).joined(
            separator: " ")
        var result = try launch(
            ["-qec", command, "/dev/null"], executable: Self.script,
            input: typing.map { Data($0.utf8) }, typesOnPrompts: true, atPrompt: atPrompt,
            environment: extra, timeout: timeout)
        result.stdout = result.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        return result
    }

    /// Runs another program (a copy of a binary, `authcat-cli`) with `--home HOME arguments…`
    /// (`arguments` alone when not `withHome`).
    @discardableResult
    func runAsProcess(
        program: URL, _ arguments: [String], environment extra: [String: String] = [:],
        withHome: Bool = true
    ) throws -> AuthCatResult {
        try launch(
            (withHome ? ["--home", home.path] : []) + arguments, executable: program.path, input: nil,
            environment: extra, timeout: 60)
    }

    /// `authcat-cli`, the full program the `authcat` front hands command lines to.
    static var fullProgramURL: URL {
        executableURL.deletingLastPathComponent().appendingPathComponent("authcat-cli")
    }

    private static let script = "/usr/bin/script"

    private static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private func launch(
        _ launchArguments: [String], executable: String? = nil, input: [Data]?,
        typesOnPrompts: Bool = false, atPrompt: @escaping @Sendable (Int) -> Void = { _ in },
        environment extra: [String: String], timeout: TimeInterval
    ) throws -> AuthCatResult {
        let process = Process()
        let program = executable ?? Self.executableURL.path
        if FileManager.default.isExecutableFile(atPath: Self.setsid) {
            // A new session has no controlling terminal, so authcat behaves as
            // under a script even when the tests run in a terminal: it can
            // never stop to ask a question on /dev/tty.
            process.executableURL = URL(fileURLWithPath: Self.setsid)
            process.arguments = ["--wait", program] + launchArguments
        } else {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = launchArguments
        }
        process.environment = environment.merging(extra) { _, new in new }
        process.currentDirectoryURL = root
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let inputPipe = input.map { _ in Pipe() }
        process.standardInput = inputPipe ?? FileHandle.nullDevice

        try process.run()
        let transcript = typesOnPrompts ? TerminalTranscript(reading: output) : nil
        let feeder = inputPipe.map { pipe in
            transcript.map { $0.type(input ?? [], into: pipe, until: process, atPrompt: atPrompt) }
                ?? Self.feed(input ?? [], to: pipe)
        }
        let collected =
            transcript.map { transcript in
                let errorsOnly = Self.collect(Pipe(), errors, closingOutput: true)
                return { (transcript.finished(), errorsOnly().1) }
            } ?? Self.collect(output, errors)
        let finished = Self.wait(for: process, timeout: timeout)
        let (stdout, stderr) = collected()
        feeder?.wait()
        guard finished else { throw AuthCatRunnerError.timedOut(launchArguments, seconds: timeout) }
        return AuthCatResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Writes `chunks` on a background thread; authcat may
    /// stop reading early (it refuses oversized input), so a broken pipe is
    /// expected, not an error.
    static func feed(_ chunks: [Data], to pipe: Pipe) -> DispatchGroup {
        signal(SIGPIPE, SIG_IGN)
        let group = DispatchGroup()
        let fd = pipe.fileHandleForWriting.fileDescriptor
        DispatchQueue.global().async(group: group) {
            for chunk in chunks {
                guard writeAll(chunk, to: fd) else { break }
            }
            try? pipe.fileHandleForWriting.close()
        }
        return group
    }

    static func writeAll(_ data: Data, to fd: Int32) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count, let base = bytes.baseAddress {
                let written = write(fd, base.advanced(by: offset), bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }

    /// Drains stdout and stderr concurrently, so a chatty child never blocks on a full pipe.
    /// - Parameter closingOutput: close `output`'s writing end first (a pipe nobody writes to).
    static func collect(_ output: Pipe, _ errors: Pipe, closingOutput: Bool = false) -> () -> (Data, Data) {
        if closingOutput { try? output.fileHandleForWriting.close() }
        let group = DispatchGroup()
        let box = DataBox()
        DispatchQueue.global().async(group: group) { box.stdout = output.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { box.stderr = errors.fileHandleForReading.readDataToEndOfFile() }
        return {
            group.wait()
            return (box.stdout, box.stderr)
        }
    }

    private static func wait(for process: Process, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                process.waitUntilExit()
                return false
            }
            usleep(2_000)
        }
        process.waitUntilExit()
        return true
    }
}

private final class DataBox: @unchecked Sendable {
    var stdout = Data()
    var stderr = Data()
}

enum AuthCatRunnerError: Error, CustomStringConvertible {
    case timedOut([String], seconds: TimeInterval)
    case cannotEnter(String)

    var description: String {
        switch self {
        case .timedOut(let arguments, let seconds):
            "authcat \(arguments.joined(separator: " ")) ran longer than \(seconds) s"
        case .cannotEnter(let folder): "cannot make \(folder) the current folder"
        }
    }
}

extension Array where Element == String {
    fileprivate func dropLastIfEmpty() -> [String] {
        last == "" ? Array(dropLast()) : self
    }
}
