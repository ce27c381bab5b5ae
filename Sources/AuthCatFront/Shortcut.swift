import AuthCatEssentials

/// The command lines the front answers by itself:
/// `[--home PATH] code [--home PATH] [--at SECONDS] QUERY`,
/// `[--home PATH] list [--home PATH] [--json]`, and the completion scripts'
/// requests for account names (`---completion COMMAND -- positional@0 ...`).
///
/// Anything else (other options, `--help`, a mistake) is not a shortcut and
/// goes to `authcat-cli`, which then also produces the usual messages.
public struct Shortcut: Equatable, Sendable {
    public enum Command: Equatable, Sendable {
        /// `time`: seconds since 1970 to compute the code at; nil for now.
        case code(query: String, time: Int64?)
        case list(json: Bool)
        /// The labels to complete the account argument of a command with:
        /// the shell's `words` and the word being completed up to the cursor.
        case completion(AccountLabelCompletion.Scope, words: [String], prefix: String)
    }

    public var home: String?
    public var command: Command

    /// The shortcut `arguments` spell, or nil when they are anything else.
    public init?(_ arguments: [String]) {
        let parsed =
            arguments.first == Self.completionFlag
            ? Self.completion(arguments).map { (home: String?.none, command: $0) }
            : Self.commandLine(arguments)
        guard let parsed else { return nil }
        home = parsed.home
        command = parsed.command
    }

    /// `code` or `list` with their options, read by the one argument scanner.
    private static func commandLine(_ arguments: [String]) -> (home: String?, command: Command)? {
        var home: String?
        var time: Int64?
        var commandName: String?
        var query: String?
        var json = false
        for token in ArgumentScanner(arguments, optionsTakingValue: ["--home", "--at"]) {
            switch token {
            case .option("--home", let path?):
                guard home == nil else { return nil }
                home = path
            case .option("--at", let text?) where commandName == "code":
                guard time == nil, let seconds = Int64(text) else { return nil }
                time = seconds
            case .option("--json", nil) where commandName == "list":
                guard !json else { return nil }
                json = true
            case .word(let word) where commandName == nil:
                commandName = word
            case .word(let word):
                guard query == nil else { return nil }
                query = word
            case .option, .endOfOptions:
                return nil
            }
        }
        switch (commandName, query) {
        case ("code", let query?): return (home, .code(query: query, time: time))
        case ("list", nil): return (home, .list(json: json))
        default: return nil
        }
    }
}

extension Shortcut {
    /// How swift-argument-parser's completion scripts ask the program for
    /// candidates: `---completion [SUBCOMMAND ...] -- ARGUMENT INDEX CURSOR WORD ...`.
    static let completionFlag = "---completion"

    /// The commands whose first argument is an account, and which accounts
    /// it can name: as their `@Argument`s in AuthCatCommandLine declare
    /// (`AccountCompletion`); QuickFrontTests compares the two programs' answers for each.
    static let accountArguments: [String: AccountLabelCompletion.Scope] = [
        "code": .live, "show": .live, "edit": .live, "rm": .live, "restore": .deleted, "history": .all,
    ]

    /// A request for the account argument of one of `accountArguments`, read
    /// as swift-argument-parser reads it: the words follow the index and the
    /// cursor, and the prefix is the last word up to the cursor. Anything
    /// else (another argument, an option's value, a malformed request) is the
    /// full program's.
    private static func completion(_ arguments: [String]) -> Command? {
        guard arguments.count >= 6, arguments[2] == "--", arguments[3] == "positional@0",
            let scope = accountArguments[arguments[1]], Int(arguments[4]) != nil, let cursor = Int(arguments[5]),
            cursor >= 0
        else { return nil }
        let words = Array(arguments.dropFirst(6))
        guard let last = words.last else { return cursor == 0 ? .completion(scope, words: words, prefix: "") : nil }
        return .completion(scope, words: words, prefix: String(last.prefix(cursor)))
    }
}
