/// The one command line the front runs itself:
/// `[--home PATH] code [--home PATH] [--at SECONDS] QUERY`.
///
/// Anything else (other options, `--help`, a mistake) is not a shortcut and
/// goes to `authcat-cli`, which then also produces the usual messages.
struct CodeShortcut: Equatable {
    var home: String?
    var query: String
    /// Seconds since 1970 to compute the code at; nil for now.
    var time: Int64?

    /// The shortcut `arguments` spell, or nil when they are anything else.
    init?(_ arguments: [String]) {
        var home: String?
        var time: Int64?
        var query: String?
        var sawCommand = false
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
            } else if sawCommand, argument == "--at" || argument.hasPrefix("--at=") {
                guard time == nil, let text = value(of: "--at"), let seconds = Int64(text) else { return nil }
                time = seconds
            } else if argument.hasPrefix("-") {
                return nil
            } else if !sawCommand {
                guard argument == "code" else { return nil }
                sawCommand = true
            } else {
                guard query == nil else { return nil }
                query = argument
            }
            index += 1
        }
        guard let query else { return nil }
        self.home = home
        self.query = query
        self.time = time
    }
}
