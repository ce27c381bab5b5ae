import AuthCatCore
import AuthCatEssentials

/// An entry that was not imported, and why. It names the entry by position
/// and label, never by its secret.
public struct ImportRejection: Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        /// Malformed: a missing field, a wrong type, a bad secret, parameters out of range.
        case invalid(String)
        /// Well formed but of a kind authcat cannot use (mOTP, Yandex, MD5).
        case unsupported(String)
        /// Same issuer and name as an account in the vault or earlier in the file, with a different secret.
        case conflict(String)
    }

    public var position: EntryPosition
    /// `Issuer:name` when the entry had readable ones.
    public var label: String?
    public var reason: Reason

    public init(position: EntryPosition, label: String?, reason: Reason) {
        self.position = position
        self.label = label
        self.reason = reason
    }

    /// "invalid", "unsupported" or "conflict".
    public var kind: String {
        switch reason {
        case .invalid: "invalid"
        case .unsupported: "unsupported"
        case .conflict: "conflict"
        }
    }

    /// The reason in words, without the position.
    public var message: String {
        switch reason {
        case .invalid(let text), .unsupported(let text), .conflict(let text): text
        }
    }

    /// "line 4 (GitHub:alice): unsupported type 'motp'".
    public var description: String {
        let name = label.map { " (\(TerminalText.sanitized($0)))" } ?? ""
        return "\(position)\(name): \(message)"
    }
}

/// An entry left out because the account is already there: same issuer and
/// name (ignoring case) and the same secret.
public struct SkippedEntry: Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        /// The vault already has this account.
        case alreadyInVault
        /// An earlier entry of the same file is this account.
        case duplicateInFile(of: EntryPosition)
    }

    public var position: EntryPosition
    public var label: String
    public var reason: Reason

    public var message: String {
        switch reason {
        case .alreadyInVault: "already in the vault"
        case .duplicateInFile(let earlier): "same as \(earlier)"
        }
    }

    public var description: String {
        "\(position) (\(TerminalText.sanitized(label))): \(message)"
    }
}
