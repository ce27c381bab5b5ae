/// The files `authcat import` reads.
public enum ImportFormat: String, CaseIterable, Codable, Sendable {
    /// One `otpauth://` URI per line: the plain export of Ente Auth, 2FAS, pass-otp and others.
    case otpauth
    /// `otpauth-migration://offline?data=…` lines: Google Authenticator's export.
    case google
    /// An Aegis vault, plain or password-encrypted.
    case aegis
    /// A 2FAS backup, with or without a password.
    case twoFAS = "2fas"
    /// An andOTP backup, plain JSON or password-encrypted.
    case andOTP = "andotp"
    /// A Bitwarden JSON export, plain or password-protected (items with `login.totp`).
    case bitwarden
    /// authcat's own encrypted backup, or its plain JSON export.
    case authcat
    /// A Stratum (Authenticator Pro) backup, plain or encrypted, or its HTML export.
    case stratum
    /// An Ente Auth encrypted export (its plain export is `otpauth`).
    case ente
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
        case .stratum: "Stratum (Authenticator Pro) backup"
        case .ente: "Ente Auth export"
        case .pass: "password store"
        case .keepassxc: "KeePassXC export"
        }
    }
}
