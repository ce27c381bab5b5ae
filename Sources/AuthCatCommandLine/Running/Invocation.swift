import AuthCatCore
import AuthCatEssentials
import AuthCatInterchange
import Foundation

/// Everything one run of the command line takes from the world outside it:
/// its arguments and environment, its standard streams, whether it may ask on
/// a terminal, the clock, the cost of passphrase hashing, and the program
/// that detached work (a background push, the clipboard clearer) runs.
///
/// `main` builds one from the process (`ofThisProcess`); tests build their
/// own and run many command lines in one process (docs/ARCHITECTURE.md).
/// Code below the entry point reads it as `Invocation.current`: a task-local
/// value, so that ArgumentParser's commands, whose `run()` takes no
/// arguments, need no global state.
public struct Invocation: Sendable {
    /// The command line without the program's name.
    public var arguments: [String]
    public var environment: [String: String]
    public var standardInput: Int32
    public var standardOutput: StandardStream
    public var standardError: StandardStream
    /// The terminal questions and hidden passphrases are asked on; nil when
    /// there is none to ask (as for a process without a controlling terminal).
    public var terminalPath: String?
    public var clock: any Clock
    /// The key derivation every new passphrase gets unless the user chose one
    /// (`backup --kdf`); nil for each use's own default. Tests make it cheap.
    public var passphraseKDF: KDFParameters?
    /// What runs the detached work.
    public var launcher: DetachedLauncher

    public init(
        arguments: [String], environment: [String: String], standardInput: Int32,
        standardOutput: StandardStream, standardError: StandardStream, terminalPath: String?,
        clock: any Clock = SystemClock(), passphraseKDF: KDFParameters? = nil, launcher: DetachedLauncher
    ) {
        self.arguments = arguments
        self.environment = environment
        self.standardInput = standardInput
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.terminalPath = terminalPath
        self.clock = clock
        self.passphraseKDF = passphraseKDF
        self.launcher = launcher
    }

    /// This process's own: its arguments, environment, descriptors 0, 1 and 2,
    /// `/dev/tty`, the system clock, and this very binary for detached work.
    public static func ofThisProcess() -> Invocation {
        Invocation(
            arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
            standardInput: STDIN_FILENO, standardOutput: StandardStream(STDOUT_FILENO),
            standardError: StandardStream(STDERR_FILENO), terminalPath: "/dev/tty",
            launcher: DetachedLauncher())
    }

    /// The invocation being run; outside `CommandRunner.run`, this process's own.
    @TaskLocal public static var current = Invocation.ofThisProcess()

    /// The current time.
    var now: Date { clock.now() }

    /// The descriptors `/dev/stdout` and its kin stand for in output paths.
    var standardDescriptors: StandardDescriptors {
        StandardDescriptors(
            input: standardInput, output: standardOutput.fileDescriptor, error: standardError.fileDescriptor)
    }
}
