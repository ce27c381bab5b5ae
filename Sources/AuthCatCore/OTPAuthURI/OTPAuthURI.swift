import AuthCatEssentials
import Foundation

/// Google Authenticator's Key Uri Format:
/// `otpauth://TYPE/Issuer:account?secret=…&issuer=…&algorithm=…&digits=…&period=…&counter=…`.
///
/// Parsing is forgiving where real-world URIs differ (case of the type and
/// algorithm, `%3A` or spaces around the label's colon, `+` for spaces in
/// parameters, unknown parameters) and strict where a mistake would make
/// wrong codes. Steam Guard accounts are `totp` URIs with `encoder=steam`
/// (or issuer "Steam"); the `steam` type some apps write is accepted too.
///
/// Two more forms, as Aegis reads and writes them: Yandex accounts are
/// `otpauth://yaotp/…?secret=…&pin=…`, and mOTP accounts
/// `motp://Issuer:account?secret=…&pin=…` with the secret in hex. `pin` is
/// the Base32 of the PIN's UTF-8 bytes and may be missing (Yandex's own QR
/// codes and mOTP's lack it): the draft then has no PIN, and the caller asks
/// for it. Secrets of Base32 lengths no byte string has are read as
/// `Base32.decodeSecret` does, and the draft's `secretLeftover` says so.
public enum OTPAuthURI {
    public static let scheme = "otpauth"
    public static let motpScheme = "motp"
    /// The URI type of Yandex accounts.
    static let yandexType = "yaotp"

    /// Whether `text` is written as a URI that carries a secret: `otpauth://`,
    /// `motp://` or Google's `otpauth-migration://` (any case), leading white
    /// space aside. Nothing else is checked: what matters is where it must not
    /// go (an argument, a message), not whether it would parse.
    public static func carriesSecret(_ text: String) -> Bool {
        let start = text.drop { $0.isWhitespace }
        guard let colon = start.firstIndex(of: ":"), start[colon...].hasPrefix("://") else { return false }
        return [scheme, motpScheme, migrationScheme].contains(start[..<colon].lowercased())
    }

    /// Google Authenticator's export of several accounts, read by `import`.
    public static let migrationScheme = "otpauth-migration"

    /// Reads one account, secret included, and validates its parameters.
    /// - Throws: `OTPAuthURIError` naming what is wrong, never quoting the secret.
    public static func parse(_ uri: String) throws -> AccountDraft {
        let text = uri.trimmingCharacters(in: .whitespacesAndNewlines)
        let (isMOTP, rest) = try afterScheme(text)
        let beforeFragment = rest.prefix { $0 != "#" }
        let pathEnd = beforeFragment.firstIndex(of: "?") ?? beforeFragment.endIndex
        let path = beforeFragment[..<pathEnd]
        let query = beforeFragment[pathEnd...].dropFirst()

        let type: OTPKind
        let rawLabel: Substring
        if isMOTP {
            // motp://Issuer:account: no type, the label follows at once.
            (type, rawLabel) = (.motp, path.drop { $0 == "/" })
        } else {
            let typeEnd = path.firstIndex(of: "/") ?? path.endIndex
            (type, rawLabel) = (try kind(of: path[..<typeEnd]), path[typeEnd...].dropFirst())
        }
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
        var draft = AccountDraft(issuer: issuer, name: name, otp: otp, secret: SecretBytes(count: 0))
        try readSecret(parameters, into: &draft)
        return draft
    }

    /// Whether the scheme is `motp`, and the text after `otpauth://` or
    /// `motp://`; or the reason it is not an otpauth URI.
    private static func afterScheme(_ text: String) throws -> (isMOTP: Bool, rest: Substring) {
        guard let colon = text.firstIndex(of: ":") else { throw OTPAuthURIError.notOTPAuth }
        let scheme = text[..<colon].lowercased()
        let rest = text[colon...]
        guard rest.hasPrefix("://") else { throw OTPAuthURIError.notOTPAuth }
        if scheme == migrationScheme { throw OTPAuthURIError.migrationExport }
        guard scheme == Self.scheme || scheme == motpScheme else { throw OTPAuthURIError.notOTPAuth }
        return (scheme == motpScheme, rest.dropFirst(3))
    }

    private static func kind(of type: Substring) throws -> OTPKind {
        switch type.lowercased() {
        case "totp": .totp
        case "hotp": .hotp
        case "steam": .steam
        case yandexType: .yandex
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
        // Yandex and mOTP have one algorithm, digits and period each; the
        // ones their URIs carry (Aegis writes them) are not read.
        if kind.needsPIN { return OTPParameters(kind: kind) }

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
        // MD5 belongs to mOTP, whose URIs name no algorithm.
        guard let algorithm = OTPAlgorithm(rawValue: normalized), algorithm != .md5 else {
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

    /// The secret (Base32, or hex for mOTP) and the PIN, if the URI has one.
    private static func readSecret(_ parameters: Parameters, into draft: inout AccountDraft) throws {
        guard let text = try parameters.text("secret"), !text.allSatisfy(\.isWhitespace) else {
            throw OTPAuthURIError.missingSecret
        }
        do {
            if draft.otp.kind == .motp {
                draft.secret = try Base16.decode(text)
            } else {
                let decoded = try Base32.decodeSecret(text)
                draft.secret = decoded.secret
                draft.secretLeftover = decoded.leftover
            }
            if draft.otp.kind == .yandex { draft.secret = try OTPPIN.yandexSecret(draft.secret) }
        } catch let error as Base32Error {
            throw OTPAuthURIError.invalidSecret(error)
        } catch let error as Base16Error {
            throw OTPAuthURIError.invalidHexSecret(error)
        } catch let error as OTPPINError {
            throw OTPAuthURIError.invalidPIN(error)
        }
        guard draft.otp.kind.needsPIN, let pinText = try parameters.text("pin"), !pinText.isEmpty else { return }
        do {
            let pin = try Base32.decode(pinText)
            try OTPPIN.check(pin)
            draft.pin = pin
        } catch let error as OTPPINError {
            throw OTPAuthURIError.invalidPIN(error)
        } catch {
            throw OTPAuthURIError.invalidPIN(.invalid)
        }
    }
}
