/// The files `authcat export` writes.
public enum ExportFormat: String, CaseIterable, Codable, Sendable {
    /// One `otpauth://` URI per line; tags and notes ride in Ente Auth's `codeDisplay` parameter.
    case otpauth
    /// Google Authenticator `otpauth-migration://` lines, for its "import accounts" QR codes.
    case google
    /// A plain (unencrypted) Aegis vault.
    case aegis
    /// authcat's own JSON (`AuthCatArchive`), the complete plain export.
    case json
}
