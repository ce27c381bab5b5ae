import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import Foundation

/// Turns every failure into one lowercase line on standard error, prefixed
/// `authcat: ` (a JSON object under `--json`, see `Output`), and an exit status: 1 for errors, ArgumentParser's status for
/// usage errors. It writes the message and returns the status. Only `UserFacingError` descriptions are shown verbatim;
/// anything else is named by the operation that failed, so no raw value (a
/// secret, an SQL argument) can reach the terminal.
struct ErrorReport {
    /// Where the message goes.
    var output: Output
    /// The command line, to name the command and hide long values.
    var arguments: [String]

    /// For errors from parsing: help and completion requests print their
    /// output and succeed; usage errors print one line. An unknown command
    /// word and a value an option does not take are worded by authcat, from
    /// the command tree; any other usage error is ArgumentParser's message as
    /// it gives it (`AuthCat.message(for:)`), never reworded.
    func status(parsing error: Error) -> Int32 {
        let code = AuthCat.exitCode(for: error)
        if code.isSuccess { return status(argumentParser: error) }
        if let unknown = CommandSuggestion.unknownCommand(in: arguments) {
            return fail(unknown, status: code.rawValue)
        }
        let message = ArgumentChoice.refusal(in: arguments) ?? AuthCat.message(for: error)
        return fail(usageLine(Self.redactingValues(message, arguments: arguments)), status: code.rawValue)
    }

    /// A usage problem found before parsing, already worded with where to
    /// read more, and showing nothing of the command line that could be a secret.
    func usage(_ message: String) -> Int32 {
        fail(message, status: ExitCode.validationFailure.rawValue)
    }

    /// ArgumentParser's own report (help, a version, its own commands' errors),
    /// as its `exit(withError:)` prints it: on standard output for a clean
    /// exit, else on standard error.
    func status(argumentParser error: Error) -> Int32 {
        let code = AuthCat.exitCode(for: error)
        let message = AuthCat.fullMessage(for: error)
        if !message.isEmpty {
            if code.isSuccess { output.print(message) } else { output.aside(message) }
        }
        return code.rawValue
    }

    /// ArgumentParser quotes unexpected arguments in its messages. Someone who
    /// pastes a secret as an argument must not see it echoed into a terminal
    /// or a log, so long values (where a secret could hide) become `…`; short
    /// ones such as a mistyped `md5` stay, since they help.
    static func redactingValues(_ message: String, arguments: [String]) -> String {
        let values = arguments.flatMap { argument -> [String] in
            guard argument.hasPrefix("-") else { return [argument] }
            return argument.split(separator: "=", maxSplits: 1).dropFirst().map(String.init)
        }
        return values.filter { $0.count >= redactedLength }.reduce(message) { text, value in
            text.replacingOccurrences(of: "'\(value)'", with: "'…'")
        }
    }

    /// 128 + SIGINT, what a shell reports for a program Ctrl-C ended.
    static let interruptedStatus: Int32 = 128 + SIGINT

    /// 8 Base32 characters are 40 bits, less than any real secret.
    private static let redactedLength = 8

    /// For errors thrown while a command ran.
    func status(running error: Error) -> Int32 {
        switch error {
        case let exitCode as ExitCode:
            return exitCode.rawValue
        case is CleanExit:
            return status(argumentParser: error)
        case is PromptInterrupted:
            // The shell's own status for Ctrl-C, and no line: the terminal shows `^C`, as for any interrupted program.
            return Self.interruptedStatus
        case let validation as ValidationError:
            return fail(
                usageLine(validation.message), status: ExitCode.validationFailure.rawValue)
        case let userFacing as UserFacingError:
            return fail(userFacing.advisedDescription, status: EXIT_FAILURE)
        default:
            let operation = CommandPath.of(arguments).joined(separator: " ")
            return fail(UnexpectedError.message(operation, error), status: EXIT_FAILURE)
        }
    }

    /// One line through `ErrorLine`, the format the quick front shares
    /// (a JSON object under `--json`, which the front never answers).
    private func fail(_ message: String, status: Int32) -> Int32 {
        output.error(ErrorLine.message(message), status: status)
        return status
    }

    /// A usage problem and where to read more, on one line.
    private func usageLine(_ message: String) -> String {
        "\(message) (see '\(CommandPath.of(arguments).joined(separator: " ")) --help')"
    }
}
