import AuthCatCore

/// Problems specific to the `config` commands.
enum ConfigError: UserFacingError {
    case notSet(key: String, noun: String)

    var description: String {
        switch self {
        case let .notSet(key, noun): "no \(noun) named \(TerminalText.sanitized(key).debugDescription)"
        }
    }
}
