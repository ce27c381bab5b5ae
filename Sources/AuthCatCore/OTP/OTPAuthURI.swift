import Foundation

/// Google Authenticator's Key Uri Format:
/// `otpauth://TYPE/Issuer:account?secret=…&issuer=…&algorithm=…&digits=…&period=…&counter=…`.
///
/// Parsing is forgiving where real-world URIs differ (case of the type and
/// algorithm, `%3A` or spaces around the label's colon, `+` for spaces in
/// parameters, unknown parameters) and strict where a mistake would make
/// wrong codes. Steam Guard accounts are `totp` URIs with `encoder=steam`
/// (or issuer "Steam"); the `steam` type some apps write is accepted too.
public enum OTPAuthURI {
    public static let scheme = "otpauth"

    /// Reads one account, secret included, and validates its parameters.
    /// - Throws: `OTPAuthURIError` naming what is wrong, never quoting the secret.
    public static func parse(_ uri: String) throws -> AccountDraft {
        let text = uri.trimmingCharacters(in: .whitespacesAndNewlines)
        let rest = try afterScheme(text)
        let beforeFragment = rest.prefix { $0 != "#" }
        let pathEnd = beforeFragment.firstIndex(of: "?") ?? beforeFragment.endIndex
        let path = beforeFragment[..<pathEnd]
        let query = beforeFragment[pathEnd...].dropFirst()

        let typeEnd = path.firstIndex(of: "/") ?? path.endIndex
        let type = try kind(of: path[..<typeEnd])
        let rawLabel = path[typeEnd...].dropFirst()
        guard !rawLabel.isEmpty else { throw OTPAuthURIError.missingLabel }
        guard let label = PercentEncoding.decode(rawLabel, plusAsSpace: false) else {
            throw OTPAuthURIError.invalidEncoding(part: "label")
        }

        let parameters = try Parameters(query)
        // An empty `issuer=` says nothing, so the label's prefix still counts.
        let issuerParameter = try parameters.text("issuer").flatMap { $0.isEmpty ? nil : $0 }
        let (labelIssuer, name) = split(label: label, issuer: issuerParameter)
        guard !name.isEmpty else { throw OTPAuthURIError.missingAccountName }
        let issuer = issuerParameter ?? labelIssuer ?? ""

        let otp = try otpParameters(type: type, issuer: issuer, parameters)
        let secret = try decodeSecret(parameters)
        return AccountDraft(issuer: issuer, name: name, otp: otp, secret: secret)
    }

    /// The text after `otpauth://`, or the reason it is not an otpauth URI.
    private static func afterScheme(_ text: String) throws -> Substring {
        guard let colon = text.firstIndex(of: ":") else { throw OTPAuthURIError.notOTPAuth }
        let scheme = text[..<colon].lowercased()
        let rest = text[colon...]
        guard rest.hasPrefix("://") else { throw OTPAuthURIError.notOTPAuth }
        if scheme == "otpauth-migration" { throw OTPAuthURIError.migrationExport }
        guard scheme == Self.scheme else { throw OTPAuthURIError.notOTPAuth }
        return rest.dropFirst(3)
    }

    private static func kind(of type: Substring) throws -> OTPKind {
        switch type.lowercased() {
        case "totp": .totp
        case "hotp": .hotp
        case "steam": .steam
        default: throw OTPAuthURIError.unknownType
        }
    }

    /// Splits `Issuer:account`. When the `issuer` parameter is given and the
    /// label starts with it, exactly that prefix is removed, so issuers that
    /// themselves contain a colon survive; otherwise the first colon splits.
    /// Spaces after the colon are dropped.
    private static func split(label: String, issuer: String?) -> (issuer: String?, name: String) {
        if let issuer, let prefix = label.range(of: issuer + ":", options: [.anchored, .caseInsensitive]) {
            return (issuer, String(label[prefix.upperBound...].drop { $0 == " " }))
        }
        guard let colon = label.firstIndex(of: ":") else { return (nil, label) }
        return (String(label[..<colon]), String(label[label.index(after: colon)...].drop { $0 == " " }))
    }

    private static func otpParameters(type: OTPKind, issuer: String, _ parameters: Parameters) throws -> OTPParameters {
        let encoder = try parameters.text("encoder")?.lowercased()
        if type == .hotp && encoder == "steam" { throw OTPAuthURIError.steamWithHOTP }
        let isSteam = type == .steam || (type == .totp && (encoder == "steam" || issuer.lowercased() == "steam"))
        let kind: OTPKind = isSteam ? .steam : type

        var otp = OTPParameters(kind: kind, algorithm: try algorithm(parameters))
        if kind != .steam, let digits = try parameters.number("digits") { otp.digits = digits }
        if kind != .hotp, let period = try parameters.number("period") { otp.period = period }
        if kind == .hotp { otp.counter = try counter(parameters) }
        do {
            try otp.validate()
        } catch let error as OTPParameterError {
            throw OTPAuthURIError.invalidParameter(error)
        }
        return otp
    }

    private static func algorithm(_ parameters: Parameters) throws -> OTPAlgorithm {
        guard let name = try parameters.text("algorithm") else { return .sha1 }
        // "SHA-256" and "HmacSHA256" appear in the wild; both mean sha256.
        var normalized = name.lowercased().replacingOccurrences(of: "-", with: "")
        if normalized.hasPrefix("hmac") { normalized.removeFirst(4) }
        guard let algorithm = OTPAlgorithm(rawValue: normalized) else {
            throw OTPAuthURIError.unknownAlgorithm
        }
        return algorithm
    }

    private static func counter(_ parameters: Parameters) throws -> UInt64 {
        guard let text = try parameters.text("counter") else { throw OTPAuthURIError.missingCounter }
        if let counter = UInt64(text) { return counter }
        // All digits but too large for UInt64: out of range, not malformed.
        if !text.isEmpty && text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            throw OTPAuthURIError.invalidParameter(.counter)
        }
        throw OTPAuthURIError.invalidNumber(parameter: "counter")
    }

    private static func decodeSecret(_ parameters: Parameters) throws -> SecretBytes {
        guard let text = try parameters.text("secret"), !text.allSatisfy(\.isWhitespace) else {
            throw OTPAuthURIError.missingSecret
        }
        do {
            return try Base32.decode(text)
        } catch let error as Base32Error {
            throw OTPAuthURIError.invalidSecret(error)
        }
    }
}
