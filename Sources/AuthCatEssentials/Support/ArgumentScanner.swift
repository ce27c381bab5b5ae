/// The one reading of a command line's arguments below swift-argument-parser,
/// shared by both programs: the quick front's shortcuts (`Shortcut`), the
/// command words that name a command (`CommandPath`), the `--home` the sync
/// warning and the completion of account names look at, and the request for
/// a completion script.
///
/// It knows no command, only the shape of words: `--name=VALUE` and, for the
/// options the caller names as taking a value, `--name VALUE` are one option
/// with its value; any other word starting with `-` is an option without one;
/// `--` ends the options, and every word after it is a plain word. It needs
/// nothing from Foundation, so the quick front stays small.
public struct ArgumentScanner: Sequence, IteratorProtocol, Sendable {
    public enum Token: Equatable, Sendable {
        /// A word that is no option: a command's name or a positional argument.
        case word(String)
        /// An option, `--home` in `--home PATH` and `--home=PATH`, with its value:
        /// nil for a flag, and for an option that takes a value but ends the line.
        case option(String, value: String?)
        /// `--`: every word after it is a `word`.
        case endOfOptions
    }

    private let arguments: [String]
    private let optionsTakingValue: [String]
    private var index = 0
    private var optionsEnded = false

    /// - Parameter optionsTakingValue: the options whose value may be the next
    ///   word (`--home`), as spelled before any `=`.
    public init(_ arguments: [String], optionsTakingValue: [String] = []) {
        self.arguments = arguments
        self.optionsTakingValue = optionsTakingValue
    }

    public mutating func next() -> Token? {
        guard index < arguments.count else { return nil }
        let argument = arguments[index]
        index += 1
        if optionsEnded || !argument.hasPrefix("-") { return .word(argument) }
        if argument == "--" {
            optionsEnded = true
            return .endOfOptions
        }
        if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
            return .option(String(argument[..<equals]), value: String(argument[argument.index(after: equals)...]))
        }
        guard optionsTakingValue.contains(argument), index < arguments.count else {
            return .option(argument, value: nil)
        }
        index += 1
        return .option(argument, value: arguments[index - 1])
    }

    /// The value of the first `name` option before any `--`, if one has a value.
    public static func firstValue(of name: String, in arguments: [String]) -> String? {
        values(of: name, in: arguments).first
    }

    /// The value of the last `name` option before any `--`: the one
    /// swift-argument-parser keeps when an option is given twice.
    public static func lastValue(of name: String, in arguments: [String]) -> String? {
        values(of: name, in: arguments).last
    }

    private static func values(of name: String, in arguments: [String]) -> [String] {
        var values: [String] = []
        for token in ArgumentScanner(arguments, optionsTakingValue: [name]) {
            switch token {
            case .option(name, let value?): values.append(value)
            case .endOfOptions: return values
            default: continue
            }
        }
        return values
    }
}
