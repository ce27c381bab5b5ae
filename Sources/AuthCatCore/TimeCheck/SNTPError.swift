import AuthCatEssentials
import Foundation

/// Why an SNTP query gave no time.
public enum SNTPError: UserFacingError, Equatable {
    /// `--server` is not `HOST` or `HOST:PORT`.
    case badServer(String)
    /// The host name does not resolve (no network, a typo).
    case unresolvable(String, reason: String)
    /// No reply came within the timeout.
    case noAnswer(String, seconds: Double)
    /// A reply came, but is not a usable answer (wrong mode, not our request, a kiss-o'-death…).
    case badReply(String, reason: String)
    /// The socket could not be made or used.
    case network(String, reason: String)

    public var description: String {
        switch self {
        case .badServer(let text):
            "'\(TerminalText.sanitized(text))' is not a server; give HOST or HOST:PORT"
        case .unresolvable(let server, let reason):
            "cannot find the time server \(server) (\(reason))"
        case .noAnswer(let server, let seconds):
            "no answer from the time server \(server) within \(Self.seconds(seconds))"
        case .badReply(let server, let reason):
            "the time server \(server) sent a reply authcat cannot use: \(reason)"
        case .network(let server, let reason):
            "cannot ask the time server \(server): \(reason)"
        }
    }

    /// "3 s", "0.5 s".
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}
