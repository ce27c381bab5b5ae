import ArgumentParser

/// The command a command line names (`authcat passphrase set`), found by
/// walking the command tree, so error messages can name the operation even
/// for commands added later.
enum CommandPath {
    static func of(_ arguments: [String]) -> [String] {
        var command: ParsableCommand.Type = AuthCat.self
        var path = ["authcat"]
        for argument in arguments where !argument.hasPrefix("-") {
            let next = command.configuration.subcommands.first { candidate in
                // `_commandName` is the public name ArgumentParser derives when none is configured.
                candidate._commandName == argument || candidate.configuration.aliases.contains(argument)
            }
            guard let next else { continue }
            command = next
            path.append(next._commandName)
        }
        return path
    }
}
