import AuthCatEssentials

/// Why an `otpauth://` URI could not be read.
///
/// Descriptions never contain the secret, nor the URI, which holds it.
public enum OTPAuthURIError: UserFacingError, Equatable {
    /// The text does not start with `otpauth://`.
    case notOTPAuth
    /// An `otpauth-migration://` export of Google Authenticator, which holds many accounts.
    case migrationExport
    /// The type after `otpauth://` is neither `totp` nor `hotp`.
    case unknownType
    /// Nothing after the type: no `Issuer:account` label.
    case missingLabel
    /// A label with an issuer but no account name, like `GitHub:`.
    case missingAccountName
    /// No `secret` parameter, or an empty one.
    case missingSecret
    /// The `secret` parameter is not Base32.
    case invalidSecret(Base32Error)
    /// A part (`label` or a parameter name) with a broken `%` escape or bytes that are not UTF-8.
    case invalidEncoding(part: String)
    /// An `algorithm` other than SHA1, SHA256 or SHA512. The value is not
    /// kept: in a garbled URI it could be part of the secret.
    case unknownAlgorithm
    /// `digits`, `period` or `counter` is not a whole number.
    case invalidNumber(parameter: String)
    /// An `hotp` URI without `counter`.
    case missingCounter
    /// `encoder=steam` on an `hotp` URI; Steam codes are time-based.
    case steamWithHOTP
    /// A parameter out of range (digits, period, counter).
    case invalidParameter(OTPParameterError)
    /// The hex secret of an `motp://` URI is not hex.
    case invalidHexSecret(Base16Error)
    /// The `pin` parameter is not the Base32 of a usable PIN, or a Yandex secret has the wrong size.
    case invalidPIN(OTPPINError)

    public var description: String {
        switch self {
        case .notOTPAuth:
            "not an otpauth:// URI; expected otpauth://totp/Issuer:account?secret=…"
        case .migrationExport:
            "this is a Google Authenticator export (otpauth-migration://) holding several accounts, not a single otpauth:// URI; import it as an export instead"
        case .unknownType:
            "the URI type must be totp, hotp, steam or yaotp, as in otpauth://totp/Issuer:account?secret=…"
        case .missingLabel:
            "the URI has no label; expected otpauth://totp/Issuer:account?secret=…"
        case .missingAccountName:
            "the URI label has no account name after the issuer; expected Issuer:account"
        case .missingSecret:
            "the URI has no secret parameter"
        case .invalidSecret(let error):
            "the URI's secret is not valid Base32: \(error.description)"
        case .invalidEncoding(let part):
            "the URI's \(part) has a broken %-escape or is not UTF-8 text"
        case .unknownAlgorithm:
            "the URI's algorithm is not supported; use SHA1, SHA256 or SHA512"
        case .invalidNumber(let parameter):
            "the URI's \(parameter) parameter is not a valid whole number"
        case .missingCounter:
            "an hotp URI needs a counter parameter, as in otpauth://hotp/Issuer:account?secret=…&counter=0"
        case .steamWithHOTP:
            "steam codes are time-based; use otpauth://totp/…&encoder=steam"
        case .invalidParameter(let error):
            "the URI's parameters are out of range: \(error.description)"
        case .invalidHexSecret(let error):
            "the URI's secret is not valid hex: \(error.description)"
        case .invalidPIN(let error):
            "the URI's pin or secret cannot be used: \(error.description)"
        }
    }
}
