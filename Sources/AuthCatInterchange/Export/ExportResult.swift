import AuthCatCore
import AuthCatEssentials
import Foundation

/// An export's bytes and what went into it. The data holds secrets.
public struct ExportResult: Sendable {
    public var format: ExportFormat
    /// The file's contents.
    public var data: Data
    /// Number of accounts written.
    public var exported: Int
    /// Accounts the format cannot hold.
    public var omitted: [ExportOmission]
    /// The texts to show as QR codes: one per URI for otpauth and google, none for JSON formats.
    public var qrTexts: [String]
}

/// An account a format cannot hold, left out of an export, and why.
public struct ExportOmission: Codable, Equatable, Sendable, CustomStringConvertible {
    public var label: String
    public var reason: String

    public var description: String {
        "\(TerminalText.sanitized(label)): \(reason)"
    }
}
