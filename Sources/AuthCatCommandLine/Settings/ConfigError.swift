import AuthCatCore
import AuthCatEssentials

/// Problems specific to the `config` commands.
enum ConfigError: UserFacingError {
    case notSet(key: String, noun: String)
    case unknownKey(String, synced: Bool, nearest: String?)
    case badValue(key: String, expected: String)
    case noVault

    var description: String {
        switch self {
        case .notSet(let key, let noun): "no \(noun) named \(TerminalText.sanitized(key).debugDescription)"
        case .unknownKey(let key, let synced, let nearest):
            "\(TerminalText.sanitized(key).debugDescription) is not a \(synced ? "synced preference" : "setting") authcat reads"
                + (nearest.map { "; did you mean \($0.debugDescription)?" } ?? "")
                + (synced
                    ? "; synced preferences are your own, named user.NAME"
                    : "; see 'authcat config --help', or name a setting of your own user.NAME")
        case .badValue(let key, let expected): "\(key) takes \(expected)"
        case .noVault: "there is no vault yet, so nothing to configure; 'authcat add' creates it"
        }
    }
}
