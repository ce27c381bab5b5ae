import AuthCatCore
import AuthCatEssentials

/// Why `authcat code --watch` cannot show its view.
enum LiveViewError: UserFacingError {
    case notATerminal
    case noMatch(String)

    var description: String {
        switch self {
        case .notATerminal:
            "--watch needs a terminal on standard output; for scripts use 'authcat code --json'"
        case let .noMatch(query):
            "no account matches \(AccountQuery(query).quotedForMessages)"
        }
    }
}
