import ArgumentParser
import AuthCatEssentials

/// The command a command line names (`authcat passphrase set`), found by
/// walking the command tree, so that messages name the operation even for
/// commands added later. The one reading of the command words: error
/// messages, the sync warning and `CommandSuggestion` all go through it.
struct CommandPath {
    /// The names from `authcat` down to the command the line names.
    var names = ["authcat"]
    /// A word where a subcommand of the last command belongs and that names
    /// none (`lst` in `authcat lst`), if there is one.
    var unknownWord: String?
    /// The last command named: the one `unknownWord` is not a subcommand of.
    var command: ParsableCommand.Type = AuthCat.self

    /// Options before a command word that take a value (`--home PATH`).
    private static let optionsTakingValue = ["--home"]

    /// Reads the command words of `arguments` (the words after the program's
    /// name) with the one argument scanner: options and their values are
    /// passed over; a command without subcommands, `help` (ArgumentParser's)
    /// and `--` end the command words.
    init(_ arguments: [String]) {
        for token in ArgumentScanner(arguments, optionsTakingValue: Self.optionsTakingValue) {
            switch token {
            case .endOfOptions: return
            case .option: continue
            case .word(let word):
                let subcommands = command.configuration.subcommands
                guard !subcommands.isEmpty, word != "help" else { return }
                guard let next = subcommands.first(where: { Self.is($0, named: word) }) else {
                    unknownWord = word
                    return
                }
                command = next
                names.append(next._commandName)
            }
        }
    }

    /// The names from `authcat` down to the command `arguments` name.
    static func of(_ arguments: [String]) -> [String] {
        CommandPath(arguments).names
    }

    private static func `is`(_ command: ParsableCommand.Type, named word: String) -> Bool {
        // `_commandName` is the public name ArgumentParser derives when none is configured.
        command._commandName == word || command.configuration.aliases.contains(word)
    }
}
