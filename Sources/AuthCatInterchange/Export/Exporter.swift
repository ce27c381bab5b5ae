import AuthCatCore
import AuthCatEssentials
import Foundation

/// Writes a vault's live accounts in another format. Every format but
/// `google` holds every account exactly; Google Authenticator cannot hold
/// Steam, Yandex or mOTP accounts, periods other than 30 s or digits other than 6 and 8,
/// so such accounts are listed as omitted; it also drops tags and notes.
public enum Exporter {
    /// The vault's live accounts with their secrets, in display order.
    public static func items(of vault: Vault) throws -> [ExportItem] {
        try ExportItem.all(of: vault)
    }

    /// `items` written as `format`.
    /// - Parameters:
    ///   - vaultID: recorded in JSON exports.
    ///   - googleBatchID: the batch id of Google migration codes; random by default.
    ///   - password: encrypts an `aegis` export as Aegis encrypts its vaults.
    public static func export(
        _ items: [ExportItem], format: ExportFormat, vaultID: String? = nil, at date: Date = Date(),
        googleBatchID: Int32 = Int32.random(in: 1...Int32.max), password: SecretBytes? = nil
    ) throws -> ExportResult {
        switch format {
        case .otpauth:
            let uris = items.map(OTPAuthFormat.uri(for:))
            return ExportResult(format: format, data: lines(uris), exported: items.count, omitted: [], qrTexts: uris)
        case .google:
            let (uris, omitted) = try GoogleMigrationFormat.uris(for: items, batchID: googleBatchID)
            return ExportResult(
                format: format, data: lines(uris), exported: items.count - omitted.count, omitted: omitted,
                qrTexts: uris)
        case .aegis:
            let data =
                try password.map { try AegisFormat.encryptedDocument(for: items, password: $0) }
                ?? AegisFormat.document(for: items)
            return ExportResult(format: format, data: data, exported: items.count, omitted: [], qrTexts: [])
        case .twoFAS:
            let (data, omitted) = try TwoFASFormat.document(for: items, at: date)
            return ExportResult(
                format: format, data: data, exported: items.count - omitted.count, omitted: omitted, qrTexts: [])
        case .json:
            let archive = AuthCatArchive(
                kind: .export, createdAt: date, vaultID: vaultID,
                accounts: items.map { ArchivedAccount($0.account, secret: $0.secret, pin: $0.pin) })
            var data = try archive.encoded(pretty: true)
            data.append(UInt8(ascii: "\n"))
            return ExportResult(format: format, data: data, exported: items.count, omitted: [], qrTexts: [])
        }
    }

    private static func lines(_ texts: [String]) -> Data {
        Data(texts.map { $0 + "\n" }.joined().utf8)
    }
}

/// The files `authcat export` writes.
public enum ExportFormat: String, CaseIterable, Codable, Sendable {
    /// One `otpauth://` URI per line; tags and notes ride in Ente Auth's `codeDisplay` parameter.
    case otpauth
    /// Google Authenticator `otpauth-migration://` lines, for its "import accounts" QR codes.
    case google
    /// An Aegis vault, plain or encrypted with a password.
    case aegis
    /// A 2FAS backup (without a password).
    case twoFAS = "2fas"
    /// authcat's own JSON (`AuthCatArchive`), the complete plain export.
    case json
}

/// An account with its secret, ready to be written out.
public struct ExportItem: Sendable {
    public var account: Account
    public var secret: SecretBytes
    /// The PIN of a Yandex or mOTP account.
    public var pin: SecretBytes?

    public init(account: Account, secret: SecretBytes, pin: SecretBytes? = nil) {
        self.account = account
        self.secret = secret
        self.pin = pin
    }

    /// Every live account of `vault` with its secret and PIN, in display order.
    public static func all(of vault: Vault) throws -> [ExportItem] {
        try vault.accounts().map { account in
            ExportItem(
                account: account, secret: try vault.secret(for: account.id),
                pin: account.otp.kind.needsPIN ? try vault.pin(for: account.id) : nil)
        }
    }
}

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
