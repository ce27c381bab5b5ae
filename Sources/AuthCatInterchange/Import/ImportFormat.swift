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
    /// FreeOTP's backup (FreeOTP 2, password-encrypted) or its `tokens.xml` (FreeOTP 1, FreeOTP+).
    case freeOTP = "freeotp"
    /// A FreeOTP+ JSON export.
    case freeOTPPlus = "freeotp-plus"
    /// Steam Desktop Authenticator's maFiles, plain or encrypted (with their manifest).
    case steam
    /// Authy's token list from a rooted phone, plain or encrypted with the backup password.
    case authy
    /// The Battle.net app's authenticator preferences, from a rooted phone.
    case battleNet = "battlenet"
    /// Duo Mobile's third-party accounts, from a rooted phone.
    case duo
    /// A Proton Authenticator export.
    case protonAuthenticator = "proton"
    /// Google Authenticator's SQLite database, from a rooted phone.
    case googleAuthenticatorDatabase = "google-db"
    /// Microsoft Authenticator's SQLite database, from a rooted phone.
    case microsoftAuthenticator = "microsoft"
    /// A password store of pass or gopass (a folder), or one of its entries decrypted.
    case pass
    /// KeePassXC's CSV export (entries with a TOTP).
    case keepassxc
    /// A 1Password export (`.1pux`, a ZIP archive), or its `export.data`.
    case onePassword = "1password"
    /// A Proton Pass export (a ZIP archive), or its `data.json`.
    case protonPass = "protonpass"
    /// A KeePass 2 XML export, of KeePassXC or KeePass (entries with a TOTP).
    case keepassXML = "keepass-xml"
    /// TOTP Authenticator's backup (encrypted), or its preferences from a rooted phone.
    case totpAuthenticator = "totp-authenticator"
    /// A LastPass Authenticator JSON export.
    case lastPass = "lastpass"

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
        case .freeOTP: "FreeOTP backup"
        case .freeOTPPlus: "FreeOTP+ export"
        case .steam: "Steam Desktop Authenticator file"
        case .authy: "Authy token file"
        case .battleNet: "Battle.net authenticator file"
        case .duo: "Duo Mobile account file"
        case .protonAuthenticator: "Proton Authenticator export"
        case .googleAuthenticatorDatabase: "Google Authenticator database"
        case .microsoftAuthenticator: "Microsoft Authenticator database"
        case .pass: "password store"
        case .keepassxc: "KeePassXC export"
        case .onePassword: "1Password export"
        case .protonPass: "Proton Pass export"
        case .keepassXML: "KeePass XML export"
        case .totpAuthenticator: "TOTP Authenticator backup"
        case .lastPass: "LastPass Authenticator export"
        }
    }
}
