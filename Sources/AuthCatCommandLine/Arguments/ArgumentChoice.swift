import ArgumentParser
import AuthCatEssentials

/// An option whose value is one of a fixed list of words (`export --format`).
/// A word it does not take is refused in authcat's own line, made from the
/// value type's `allValueStrings`: ArgumentParser's message for it is English
/// of its own that authcat never rewords.
struct ArgumentChoice {
    /// The option as typed: `--format`.
    var option: String
    /// The words the option takes, as `--help` and the completions list them.
    var values: [String]
    /// Whether ArgumentParser would take the word: the value type's own reading.
    private var accepts: @Sendable (String) -> Bool

    init<Value: ExpressibleByArgument>(_ option: String, _ type: Value.Type) {
        self.option = option
        self.values = Value.allValueStrings
        self.accepts = { Value(argument: $0) != nil }
    }

    /// The refusal of the first value in `arguments` that an option of the
    /// command they name does not take, or nil when there is none (another
    /// usage error is ArgumentParser's to word).
    static func refusal(in arguments: [String]) -> String? {
        let path = CommandPath(arguments)
        guard let command = path.command as? OffersChoices.Type else { return nil }
        let options = command.choices.map(\.option)
        for token in ArgumentScanner(arguments, optionsTakingValue: options) {
            switch token {
            case .endOfOptions: return nil
            case .word: continue
            case .option(let name, let value):
                // A word after the option that starts with `-` is no value to
                // ArgumentParser (it reports the value missing); after `=` it is.
                guard let value, !value.hasPrefix("-") || arguments.contains(name + "=" + value),
                    let choice = command.choices.first(where: { $0.option == name }), !choice.accepts(value)
                else { continue }
                return choice.refusal(of: value)
            }
        }
        return nil
    }

    /// `the value 'pdf' is invalid for '--format <format>': give one of 'otpauth', 'google', 'aegis' or 'json'`.
    func refusal(of value: String) -> String {
        let quoted = values.map { "'\($0)'" }
        let list =
            quoted.count > 1
            ? quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1] : quoted.joined()
        return "the value '\(value)' is invalid for '\(option) <\(option.drop { $0 == "-" })>': give one of \(list)"
    }
}

/// A command with options that take one of a fixed list of words; `choices`
/// names each of them (`ArgumentChoiceTests` checks them against the command
/// tree ArgumentParser describes).
protocol OffersChoices: ParsableCommand {
    static var choices: [ArgumentChoice] { get }
}
