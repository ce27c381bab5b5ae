/// The command lines the front answers by itself:
/// `[--home PATH] code [--home PATH] [--at SECONDS] QUERY` and
/// `[--home PATH] list [--home PATH] [--json]`.
///
/// Anything else (other options, `--help`, a mistake) is not a shortcut and
/// goes to `authcat-cli`, which then also produces the usual messages.
public struct Shortcut: Equatable, Sendable {
    public enum Command: Equatable, Sendable {
        /// `time`: seconds since 1970 to compute the code at; nil for now.
        case code(query: String, time: Int64?)
        case list(json: Bool)
    }

    public var home: String?
    public var command: Command

    /// The shortcut `arguments` spell, or nil when they are anything else.
    public init?(_ arguments: [String]) {
        var home: String?
        var time: Int64?
        var commandName: String?
        var query: String?
        var json = false
        var index = 0
        func value(of name: String) -> String? {
            let argument = arguments[index]
            if argument.hasPrefix(name + "=") { return String(argument.dropFirst(name.count + 1)) }
            guard argument == name, index + 1 < arguments.count else { return nil }
            index += 1
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--home" || argument.hasPrefix("--home=") {
                guard home == nil, let path = value(of: "--home") else { return nil }
                home = path
            } else if commandName == "code", argument == "--at" || argument.hasPrefix("--at=") {
                guard time == nil, let text = value(of: "--at"), let seconds = Int64(text) else { return nil }
                time = seconds
            } else if commandName == "list", argument == "--json" {
                guard !json else { return nil }
                json = true
            } else if argument.hasPrefix("-") {
                return nil
            } else if commandName == nil {
                commandName = argument
            } else {
                guard query == nil else { return nil }
                query = argument
            }
            index += 1
        }
        switch (commandName, query) {
        case ("code", let query?): command = .code(query: query, time: time)
        case ("list", nil): command = .list(json: json)
        default: return nil
        }
        self.home = home
    }
}
