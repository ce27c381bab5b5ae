import ArgumentParser
import Foundation

/// The command line's entry point: parses an invocation's arguments, runs the
/// command they name, and maps every error to a message and an exit status
/// through `ErrorReport`. It returns the status; only `main` exits.
public enum CommandRunner {
    /// Runs one command line with `invocation` as `Invocation.current`.
    public static func run(_ invocation: Invocation) async -> Int32 {
        await Invocation.$current.withValue(invocation) {
            let status = await runCurrent()
            invocation.standardOutput.flush()
            invocation.standardError.flush()
            return status
        }
    }

    private static func runCurrent() async -> Int32 {
        let arguments = Invocation.current.arguments
        // The completion scripts are swift-argument-parser's with authcat's account
        // completion added (CompletionScript), so they are answered before parsing.
        if let shell = CompletionScript.requestedShell(in: arguments) {
            do {
                Output.print(try CompletionScript.script(for: shell))
                return EXIT_SUCCESS
            } catch {
                return ErrorReport.status(running: error, arguments: arguments)
            }
        }
        if let unknown = CommandSuggestion.unknownHelpTopic(in: arguments) {
            return ErrorReport.usage(unknown, arguments: arguments)
        }
        var command: ParsableCommand
        do {
            command = try await AuthCat.asyncParseAsRoot(arguments)
        } catch {
            return ErrorReport.status(parsing: error, arguments: arguments)
        }
        do {
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // ArgumentParser's own commands (`authcat help code`) report
            // through errors only ArgumentParser knows how to print.
            if isArgumentParserCommand(command) { return ErrorReport.status(argumentParser: error) }
            return ErrorReport.status(running: error, arguments: arguments)
        }
        return EXIT_SUCCESS
    }

    private static func isArgumentParserCommand(_ command: ParsableCommand) -> Bool {
        String(reflecting: type(of: command)).hasPrefix("ArgumentParser.")
    }
}
