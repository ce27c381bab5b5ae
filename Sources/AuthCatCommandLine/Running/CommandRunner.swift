import ArgumentParser
import Foundation

/// The command line's entry point: parses an invocation's arguments, runs the
/// command they name, and maps every error to a message and an exit status
/// through `ErrorReport`. It returns the status; only `main` exits.
public enum CommandRunner {
    /// Runs one command line: the command gets `invocation` (`InvokedCommand`).
    public static func run(_ invocation: Invocation) async -> Int32 {
        let status = await run(in: invocation)
        invocation.standardOutput.flush()
        invocation.standardError.flush()
        return status
    }

    private static func run(in invocation: Invocation) async -> Int32 {
        let arguments = invocation.arguments
        let report = ErrorReport(output: invocation.output, arguments: arguments)
        // The completion scripts are swift-argument-parser's with authcat's account
        // completion added (CompletionScript), so they are answered before parsing.
        do {
            if let shell = try CompletionScript.requestedShell(in: arguments) {
                invocation.output.print(try CompletionScript.script(for: shell))
                return EXIT_SUCCESS
            }
        } catch {
            return report.status(running: error)
        }
        if let refusal = SecretArgument.refusal(in: arguments) {
            return report.usage(refusal)
        }
        if let unknown = CommandSuggestion.unknownHelpTopic(in: arguments) {
            return report.usage(unknown)
        }
        // Where the root command's validation showed it, before any subcommand was read.
        SyncNoticeWarning.show(in: invocation)
        var command: ParsableCommand
        do {
            command = try await AccountCompletion.$environment.withValue(invocation.environment) {
                try await AuthCat.asyncParseAsRoot(arguments)
            }
        } catch {
            return report.status(parsing: error)
        }
        do {
            if var invoked = command as? InvokedCommand {
                try await invoked.run(in: invocation)
            } else if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // Every command of authcat's that does work is an `InvokedCommand`; the
            // others (ArgumentParser's `help`, a group run without a subcommand)
            // report through errors only ArgumentParser knows how to print.
            guard command is InvokedCommand else { return report.status(argumentParser: error) }
            return report.status(running: error)
        }
        return EXIT_SUCCESS
    }
}
