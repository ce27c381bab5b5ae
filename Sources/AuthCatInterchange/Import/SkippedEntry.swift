import AuthCatCore
import AuthCatEssentials

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
