import ArgumentParser
import AuthCatEssentials

/// For a word where a command name belongs (`authcat lst`, `authcat sync stauts`):
/// a usage line that names the nearest command, as ArgumentParser already does
/// for a mistyped option.
enum CommandSuggestion {
    /// The message for the first word that should name a subcommand and does
    /// not, or nil when every command word is known.
    static func unknownCommand(in arguments: [String]) -> String? {
        let path = CommandPath(arguments)
        guard let word = path.unknownWord else { return nil }
        let visible = path.command.configuration.subcommands.filter { $0.configuration.shouldDisplay }.map {
            $0._commandName
        }
        return message(for: word, path: path.names, nearest: nearest(to: word, among: visible))
    }

    /// The message for `help WORD…` naming no command (`authcat help nosuch`):
    /// ArgumentParser's `help` would print the top-level help and succeed.
    static func unknownHelpTopic(in arguments: [String]) -> String? {
        guard
            let index = arguments.indices.first(where: {
                arguments[$0] == "help" && !isOptionValue(at: $0, in: arguments)
            })
        else { return nil }
        let before = Array(arguments[..<index])
        guard CommandPath(before).unknownWord == nil else { return nil }
        return unknownCommand(in: before + arguments[(index + 1)...])
    }

    /// Whether the word at `index` is the value of the option before it (`--home help`).
    private static func isOptionValue(at index: Int, in arguments: [String]) -> Bool {
        index > 0 && arguments[index - 1] == "--home"
    }

    /// The word is quoted, so that a typo shows, unless it could be a secret
    /// pasted into the wrong window (`AccountQuery.couldBeASecret`, the rule
    /// for a query); a word a command's name is a typo of is never one.
    private static func message(for word: String, path: [String], nearest: String?) -> String {
        let parent = path.joined(separator: " ")
        let suggestion = nearest.map { "; did you mean '\(parent) \($0)'?" } ?? ""
        let shown =
            nearest == nil && AccountQuery(word).couldBeASecret
            ? "the word (not shown: it could be a secret)" : "'\(word)'"
        return "\(shown) is not a command of '\(parent)'\(suggestion) (see '\(parent) --help')"
    }

    /// The name closest to `word`, if it is close enough to be a typo:
    /// at most one edit for short words, two for longer ones.
    static func nearest(to word: String, among names: [String]) -> String? {
        let allowed = word.count <= 4 ? 1 : 2
        return names.map { ($0, editDistance(word.lowercased(), $0)) }
            .filter { $0.1 <= allowed }
            .min { $0.1 < $1.1 }?.0
    }

    /// Edits (insert, delete, replace, swap of neighbours) from `a` to `b`:
    /// the optimal string alignment distance, so `cdoe` is one edit from `code`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
