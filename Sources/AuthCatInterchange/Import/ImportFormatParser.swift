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
        }
    }

    /// Parses `data` as this format.
    public func parse(_ data: Data, context: ImportContext = ImportContext()) throws -> ParsedImport {
        try parser.parse(data, context: context)
    }
}
