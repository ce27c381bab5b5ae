import AuthCatCore
import AuthCatEssentials

/// Problems with what the user typed or piped in. Messages never repeat the input.
enum InputError: UserFacingError {
    case tooLong(what: String, limit: Int)
    case noTerminal(what: String, hint: String)
    case readFailed(what: String, reason: String)
    case unreadableFile(variable: String, path: String, reason: String)
    case emptyPassphrase(source: String)
    case passphrasesDiffer
    case notConfirmed(String)

    var description: String {
        switch self {
        case .tooLong(let what, let limit): "\(what) is longer than \(limit) bytes; nothing was changed"
        case .noTerminal(let what, let hint): "cannot ask for \(what) without a terminal; \(hint)"
        case .readFailed(let what, let reason): "cannot read \(what): \(reason)"
        case .unreadableFile(let variable, let path, let reason): "cannot read the \(variable) file \(path): \(reason)"
        case .emptyPassphrase(let source): "the passphrase from \(source) is empty"
        case .passphrasesDiffer: "the two passphrases differ; nothing was changed"
        case .notConfirmed(let message): message
        }
    }
}
