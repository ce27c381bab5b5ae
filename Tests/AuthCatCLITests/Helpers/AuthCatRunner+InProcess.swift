import AuthCatCommandLine
import AuthCatCore
import AuthCatEssentials
import AuthCatTesting
import Foundation

/// Command lines run in this process, through `CommandRunner.run(_:)`, the
/// entry point `authcat-cli`'s `main` calls: the same parsing, commands and
/// error reports, without starting a program. What stays outside: stdin,
/// stdout and stderr are pipes as for a process; there is no terminal to
/// ask on (as under `setsid`); detached work (a background push, the
/// clipboard clearer) starts the built `authcat-cli`, whose exit this process
/// collects; the current folder
/// is `root` and the umask 077 while the command runs, as `main` sets it.
/// Those two belong to the whole process, so one command runs at a time, and
/// help is laid out for 80 columns (ArgumentParser asks the process's
/// `COLUMNS` and terminal), as for a program with no terminal.
extension AuthCatRunner {
    /// Runs `authcat --home HOME arguments…` in this process.
    /// - Parameters:
    ///   - stdin: bytes to pipe in; nil connects /dev/null.
    ///   - environment: added to (and overriding) `self.environment`.
    ///   - withHome: false leaves `--home` out, to test the environment variables.
    ///   - timeout: how long to wait before failing the test; the command is
    ///     not stopped (a process could be killed, a task in this one cannot).
    ///   - clock: the command's time; the system's by default.
    ///   - detachedProgram: what detached work starts; the built `authcat-cli` by default.
    @discardableResult
    func run(
        _ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:],
        withHome: Bool = true, timeout: TimeInterval = 60, clock: any Clock = SystemClock(),
        detachedProgram: String = AuthCatRunner.fullProgramURL.path
    ) throws -> AuthCatResult {
        let commandLine = (withHome ? ["--home", home.path] : []) + arguments
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        let invocation = Invocation(
            arguments: commandLine, environment: environment.merging(extra) { _, new in new },
            standardInput: stdin == nil ? Self.nullDevice : input.fileHandleForReading.fileDescriptor,
            standardOutput: StandardStream(output.fileHandleForWriting.fileDescriptor),
            standardError: StandardStream(errors.fileHandleForWriting.fileDescriptor),
            terminalPath: nil, clock: clock, passphraseKDF: try KDFParameters.minimumForTesting(),
            launcher: DetachedLauncher(program: detachedProgram, collectsExits: true))
        let feeder = stdin.map { Self.feed([$0], to: input) }
        let collected = Self.collect(output, errors)
        let status = try inRoot { try Self.wait(for: invocation, timeout: timeout) }
        try output.fileHandleForWriting.close()
        try errors.fileHandleForWriting.close()
        let (stdout, stderr) = collected()
        // A command may stop reading early (it refuses oversized input); closing
        // the reading end ends the feeder with a broken pipe.
        try input.fileHandleForReading.close()
        feeder?.wait()
        return AuthCatResult(
            status: status, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Runs `body` with `root` as the current folder and the umask `main` sets,
    /// one command at a time.
    private func inRoot<Result>(_ body: () throws -> Result) throws -> Result {
        Self.oneAtATime.lock()
        defer { Self.oneAtATime.unlock() }
        setenv("COLUMNS", "80", 1)
        let previousFolder = FileManager.default.currentDirectoryPath
        guard FileManager.default.changeCurrentDirectoryPath(root.path) else {
            throw AuthCatRunnerError.cannotEnter(root.path)
        }
        let previousMask = umask(0o077)
        defer {
            umask(previousMask)
            _ = FileManager.default.changeCurrentDirectoryPath(previousFolder)
        }
        return try body()
    }

    /// Blocks this (the test's) thread until the command returns its status.
    private static func wait(for invocation: Invocation, timeout: TimeInterval) throws -> Int32 {
        let finished = DispatchSemaphore(value: 0)
        let status = StatusBox()
        Task.detached {
            status.value = await CommandRunner.run(invocation)
            finished.signal()
        }
        guard finished.wait(timeout: .now() + timeout) == .success else {
            // A task in this process cannot be stopped, and it would go on with
            // the next test's folder and descriptors: stop here, saying why.
            fatalError("\(AuthCatRunnerError.timedOut(invocation.arguments, seconds: timeout))")
        }
        return status.value
    }

    /// /dev/null, open for reading for the whole test run, as standard input
    /// when a test gives none.
    private static let nullDevice = open("/dev/null", O_RDONLY | O_CLOEXEC)

    private static let oneAtATime = NSLock()
}

/// The status a command returned, handed from its task to the waiting thread.
private final class StatusBox: @unchecked Sendable {
    var value: Int32 = -1
}
