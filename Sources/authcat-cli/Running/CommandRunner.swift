import ArgumentParser
import Foundation

/// Parses the command line and runs the command it names, mapping every
/// error to a message and an exit status through `ErrorReport`.
enum CommandRunner {
    static func run(arguments: [String] = Array(CommandLine.arguments.dropFirst())) async -> Never {
        var command: ParsableCommand
        do {
            command = try await AuthCat.asyncParseAsRoot(arguments)
        } catch {
            ErrorReport.exit(parsing: error, arguments: arguments)
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
            if isArgumentParserCommand(command) { AuthCat.exit(withError: error) }
            ErrorReport.exit(running: error, arguments: arguments)
        }
        exit(EXIT_SUCCESS)
    }

    private static func isArgumentParserCommand(_ command: ParsableCommand) -> Bool {
        String(reflecting: type(of: command)).hasPrefix("ArgumentParser.")
    }
}
