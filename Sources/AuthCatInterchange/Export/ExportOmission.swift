import AuthCatCore

/// An account a format cannot hold, left out of an export, and why.
public struct ExportOmission: Codable, Equatable, Sendable, CustomStringConvertible {
    public var label: String
    public var reason: String

    public var description: String {
        "\(TerminalText.sanitized(label)): \(reason)"
    }
}
