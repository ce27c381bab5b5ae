import AuthCatCore
import AuthCatEssentials
import Foundation
import SwiftProtobuf

/// Google Authenticator's export: `otpauth-migration://offline?data=…`
/// lines, each the base64 of a `GoogleMigrationPayload`. A large export is
/// split into a batch of several QR codes; a missing one is reported.
public enum GoogleMigrationFormat: ImportFormatParser {
    public static let format = ImportFormat.google
    public static let scheme = OTPAuthURI.migrationScheme

    public static func parse(_ data: Data, context: ImportContext) throws -> ParsedImport {
        let text = try TextLines.text(of: data, format: format)
        var result = ParsedImport(format: format)
        var batches = BatchTracker()
        for (lineNumber, line) in TextLines.lines(of: text) {
            guard !line.hasPrefix("#") else { continue }
            try read(uri: line, container: "line \(lineNumber)", into: &result, batches: &batches)
        }
        result.warnings += batches.warnings
        return result
    }

    /// Adds the accounts of one migration URI to `result`; `container` says
    /// where the URI came from ("line 3", "QR code 2").
    static func read(
        uri: Substring, container: String, into result: inout ParsedImport, batches: inout BatchTracker
    ) throws {
        let payload: GoogleMigrationPayload
        do {
            payload = try decode(uri: uri)
        } catch {
            let position = EntryPosition(number: result.entryCount + 1, description: container)
            let reason = (error as? EntryProblem)?.rejectionReason ?? .invalid("it could not be read")
            try result.reject(position, label: nil, reason: reason)
            return
        }
        batches.record(payload)
        try result.checkRoom(forEntries: payload.otpParameters.count)
        for (index, parameters) in payload.otpParameters.enumerated() {
            let position = EntryPosition(
                number: result.entryCount + 1, description: "\(container), account \(index + 1)")
            let (issuer, name) = names(parameters)
            let label = issuer.isEmpty ? name : "\(issuer):\(name)"
            try result.read(position, label: label.isEmpty ? nil : label) { try entry(parameters, position: position) }
        }
    }

    /// The payload of one `otpauth-migration://offline?data=…` URI.
    /// - Throws: `EntryProblem.invalid` saying what is wrong with the line.
    static func decode(uri line: Substring) throws -> GoogleMigrationPayload {
        guard line.lowercased().hasPrefix(scheme + "://") else {
            throw EntryProblem.invalid("it is not an \(scheme):// URI")
        }
        let query = OTPAuthFormat.query(of: String(line))
        guard let pair = query.split(separator: "&").first(where: { $0.lowercased().hasPrefix("data=") }) else {
            throw EntryProblem.invalid("it has no data parameter")
        }
        guard let bytes = Base64Text.decode(pair.dropFirst("data=".count)) else {
            throw EntryProblem.invalid("its data parameter is not base64")
        }
        do {
            return try GoogleMigrationPayload(serializedBytes: bytes)
        } catch {
            throw EntryProblem.invalid("its data is not a Google Authenticator export (damaged or cut off?)")
        }
    }

    static func entry(_ parameters: GoogleMigrationPayload.OtpParameters, position: EntryPosition) throws -> ImportEntry
    {
        var otp = OTPParameters(kind: try kind(parameters.type), algorithm: try algorithm(parameters.algorithm))
        otp.digits = try digits(parameters.digits)
        if otp.kind == .hotp {
            guard parameters.counter >= 0 else { throw EntryProblem.invalid("its counter is negative") }
            otp.counter = UInt64(parameters.counter)
        }
        let (issuer, name) = names(parameters)
        let draft = AccountDraft(issuer: issuer, name: name, otp: otp, secret: SecretBytes(parameters.secret))
        return try ImportEntry(position: position, draft: draft)
    }

    /// Google writes the label as the name, often `Issuer:account`; the issuer prefix is removed.
    static func names(_ parameters: GoogleMigrationPayload.OtpParameters) -> (issuer: String, name: String) {
        let issuer = parameters.issuer
        let name = parameters.name
        guard let colon = name.firstIndex(of: ":") else { return (issuer, name) }
        let prefix = String(name[..<colon])
        let rest = String(name[name.index(after: colon)...].drop { $0 == " " })
        if issuer.isEmpty { return (prefix, rest) }
        return prefix.caseInsensitiveCompare(issuer) == .orderedSame ? (issuer, rest) : (issuer, name)
    }

    private static func kind(_ type: GoogleMigrationPayload.OtpType) throws -> OTPKind {
        switch type {
        case .hotp: return .hotp
        case .totp, .unspecified: return .totp
        case .UNRECOGNIZED(let value): throw EntryProblem.unsupported("OTP type number \(value) is not supported")
        }
    }

    private static func algorithm(_ algorithm: GoogleMigrationPayload.Algorithm) throws -> OTPAlgorithm {
        switch algorithm {
        case .sha1, .unspecified: return .sha1
        case .sha256: return .sha256
        case .sha512: return .sha512
        case .md5: throw EntryProblem.unsupported("algorithm MD5 is not supported (only SHA1, SHA256 and SHA512)")
        case .UNRECOGNIZED(let value): throw EntryProblem.unsupported("algorithm number \(value) is not supported")
        }
    }

    private static func digits(_ digits: GoogleMigrationPayload.DigitCount) throws -> Int {
        switch digits {
        case .six, .unspecified: return 6
        case .eight: return 8
        case .UNRECOGNIZED(let value): throw EntryProblem.unsupported("digit count number \(value) is not supported")
        }
    }
}
