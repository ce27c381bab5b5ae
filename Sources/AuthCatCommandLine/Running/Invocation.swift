import ArgumentParser
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
/// `CommandRunner` hands it to the command (`InvokedCommand.run(in:)`), which
/// passes on what its helpers need.
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
        // Read once: each read copies every variable of the process.
        let environment = ProcessInfo.processInfo.environment
        return Invocation(
            arguments: Array(CommandLine.arguments.dropFirst()), environment: environment,
            standardInput: STDIN_FILENO, standardOutput: StandardStream(STDOUT_FILENO),
            standardError: StandardStream(STDERR_FILENO), terminalPath: "/dev/tty",
            passphraseKDF: testBuildPassphraseKDF(environment), launcher: DetachedLauncher())
    }

    #if AUTHCAT_TEST_BUILD
        /// Only in the tests' build (`scripts/test` compiles with `AUTHCAT_TEST_BUILD`; no
        /// other build has this code): `AUTHCAT_TEST_CHEAPEST_KDF=1` gives every new
        /// passphrase the cheapest Argon2id, as the tests' in-process runs have, so that the
        /// programs the tests start do not spend a fifth of the tests' CPU hashing
        /// passphrases (docs/PERFORMANCE.md). Unlocking still uses the stored
        /// parameters. (The same limits as AuthCatTesting's `minimumForTesting`,
        /// which the programs do not link.)
        private static func testBuildPassphraseKDF(_ environment: [String: String]) -> KDFParameters? {
            guard environment["AUTHCAT_TEST_CHEAPEST_KDF"] == "1" else { return nil }
            return try? KDFParameters(opsLimit: KDFParameters.minimumOpsLimit, memLimit: KDFParameters.minimumMemLimit)
        }
    #else
        private static func testBuildPassphraseKDF(_ environment: [String: String]) -> KDFParameters? { nil }
    #endif

    /// Where the command's output and messages go.
    var output: Output { Output(self) }

    /// The standard streams' terminals and the terminal questions are asked on.
    var terminal: Terminal { Terminal(self) }

    /// All of standard input, up to `limit` bytes (`FileDescriptorReader.readAll`).
    /// The caller wipes the returned bytes once it has decoded them.
    func readStandardInput(limit: Int, what: String) throws -> [UInt8] {
        try FileDescriptorReader.readAll(standardInput, limit: limit, what: what)
    }

    /// The current time.
    var now: Date { clock.now() }

    /// The descriptors `/dev/stdout` and its kin stand for in output paths.
    var standardDescriptors: StandardDescriptors {
        StandardDescriptors(
            input: standardInput, output: standardOutput.fileDescriptor, error: standardError.fileDescriptor)
    }
}

/// A command that runs with the invocation handed to it: `CommandRunner`
/// calls `run(in:)` with the arguments, streams, terminal, clock and
/// environment of this one command line, and the command passes on what its
/// helpers need (`invocation.output`, `invocation.now`, …). Nothing below
/// reaches for an ambient invocation.
protocol InvokedCommand: ParsableCommand {
    mutating func run(in invocation: Invocation) async throws
}

extension InvokedCommand {
    /// ArgumentParser's entry, which `CommandRunner` never takes for these commands.
    mutating func run() throws {
        throw CleanExit.message("run through CommandRunner")
    }
}
