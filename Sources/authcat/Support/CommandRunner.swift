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
            ErrorReport.exit(running: error, arguments: arguments)
        }
        exit(EXIT_SUCCESS)
    }
}
