import Foundation

/// A reader of one import format. Parsing is pure: bytes in, entries and
/// rejections out, no vault access; it never crashes or hangs on bad input
/// and reports whole-file problems as `ImportError`.
public protocol ImportFormatParser {
    static var format: ImportFormat { get }
    static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport
}

extension ImportFormat {
    /// The parser of this format.
    public var parser: any ImportFormatParser.Type {
        switch self {
        case .otpauth: OTPAuthFormat.self
        case .google: GoogleMigrationFormat.self
        case .aegis: AegisFormat.self
        case .twoFAS: TwoFASFormat.self
        case .andOTP: AndOTPFormat.self
        case .bitwarden: BitwardenFormat.self
        case .authcat: AuthCatFormat.self
        case .stratum: StratumFormat.self
        case .ente: EnteFormat.self
        case .freeOTP: FreeOTPFormat.self
        case .freeOTPPlus: FreeOTPPlusFormat.self
        case .steam: SteamFormat.self
        case .authy: AuthyFormat.self
        case .battleNet: BattleNetFormat.self
        case .duo: DuoFormat.self
        case .protonAuthenticator: ProtonAuthenticatorFormat.self
        case .googleAuthenticatorDatabase: GoogleAuthenticatorDatabaseFormat.self
        case .microsoftAuthenticator: MicrosoftAuthenticatorFormat.self
        case .pass: PassStoreFormat.self
        case .keepassxc: KeePassXCFormat.self
        case .onePassword: OnePasswordFormat.self
        case .protonPass: ProtonPassFormat.self
        case .keepassXML: KeePassXMLFormat.self
        case .totpAuthenticator: TOTPAuthenticatorFormat.self
        case .lastPass: LastPassFormat.self
        }
    }

    /// Parses `data` as this format.
    public func parse(_ data: Data, context: ImportContext = ImportContext()) throws -> ParsedImport {
        try parser.parse(data, context: context)
    }
}

/// The lines of a text import file.
enum TextLines {
    /// `data` as UTF-8 text, a leading byte-order mark dropped.
    static func text(of data: Data, format: ImportFormat) throws -> String {
        guard let text = String(data: data, encoding: .utf8) else {
            throw ImportError.malformed(format, "it is not UTF-8 text")
        }
        return text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    }

    /// Non-blank lines, trimmed, with their 1-based line numbers.
    static func lines(of text: String) -> [(number: Int, text: Substring)] {
        var result: [(Int, Substring)] = []
        var number = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { result.append((number, Substring(trimmed))) }
        }
        return result
    }
}
