import Foundation

/// `authcat code QUERY`, the command people run most and the one measured
/// against oathtool, without ArgumentParser.
///
/// Building ArgumentParser's command tree reflects over every command and
/// costs more than the rest of `code` together. The plain form
/// `[--home PATH] code [--home PATH] [--at SECONDS] QUERY` is recognised here
/// and run by the same `CodePrinter`; any other command line (other options,
/// `--help`, a mistake) returns nil and goes through ArgumentParser, which
/// then also produces the usual messages.
enum FastCodePath {
    struct Request: Equatable {
        var home: String?
        var query: String
        var time: Int64?
    }

    /// The request if `arguments` is the plain form, else nil.
    static func request(_ arguments: [String]) -> Request? {
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
        return Request(home: home, query: query, time: time)
    }

    /// Runs `authcat code` and exits if `arguments` is the plain form; returns otherwise.
    static func runIfPlain(_ arguments: [String]) {
        guard let request = request(arguments) else { return }
        run(request, arguments: arguments)
    }

    /// Runs the request and exits, with the same messages and statuses as `authcat code`.
    private static func run(_ request: Request, arguments: [String]) -> Never {
        let printer = CodePrinter(access: VaultAccess(home: request.home), hookOptions: { VaultOptions.with(home: request.home) },
                                  query: request.query, time: request.time)
        do {
            try printer.run()
        } catch {
            ErrorReport.exit(running: error, arguments: arguments)
        }
        exit(EXIT_SUCCESS)
    }
}
