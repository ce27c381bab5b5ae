/// The files `authcat import` reads.
public enum ImportFormat: String, CaseIterable, Codable, Sendable {
    /// One `otpauth://` URI per line: the plain export of Ente Auth, 2FAS, pass-otp and others.
    case otpauth
    /// `otpauth-migration://offline?data=…` lines: Google Authenticator's export.
    case google
    /// An Aegis vault, plain or password-encrypted.
    case aegis
    /// A 2FAS backup without a password.
    case twoFAS = "2fas"
    /// An andOTP plain JSON backup.
    case andOTP = "andotp"
    /// A Bitwarden unencrypted JSON export (items with `login.totp`).
    case bitwarden
    /// authcat's own encrypted backup, or its plain JSON export.
    case authcat
    /// A password store of pass or gopass (a folder), or one of its entries decrypted.
    case pass
    /// KeePassXC's CSV export (entries with a TOTP).
    case keepassxc

    /// The name people know the source by, for messages.
    public var displayName: String {
        switch self {
        case .otpauth: "otpauth URI list"
        case .google: "Google Authenticator export"
        case .aegis: "Aegis vault"
        case .twoFAS: "2FAS backup"
        case .andOTP: "andOTP backup"
        case .bitwarden: "Bitwarden export"
        case .authcat: "authcat backup"
        case .pass: "password store"
        case .keepassxc: "KeePassXC export"
        }
    }
}
