import AuthCatEssentials
import Foundation

// Every error AuthCatCore throws of its own (reading the vault also throws
// AuthCatEssentials' `VaultError`), together: none quotes a secret, a URI or
// SQL arguments.

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

/// Why a preference could not be stored.
public enum PreferenceError: UserFacingError, Equatable {
    case invalidKey(String)
    case quotaExceeded(String)

    public var description: String {
        switch self {
        case .invalidKey(let reason): "invalid preference key: \(reason)"
        case .quotaExceeded(let reason): "synced preferences are over quota: \(reason); nothing was changed"
        }
    }
}

/// The limits of the synced key-value store, as for Apple's key-value store.
public enum PreferenceQuota {
    public static let maximumKeys = 1024
    public static let maximumKeyBytes = 64
    /// Keys and values together, in UTF-8 bytes.
    public static let maximumTotalBytes = 1_048_576

    /// Throws if `preferences` breaks any limit.
    public static func check(_ preferences: [String: String]) throws {
        for key in preferences.keys { try checkKey(key) }
        guard preferences.count <= maximumKeys else {
            throw PreferenceError.quotaExceeded("at most \(maximumKeys) keys")
        }
        let total = preferences.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        guard total <= maximumTotalBytes else {
            throw PreferenceError.quotaExceeded("at most \(maximumTotalBytes) bytes of keys and values")
        }
    }

    public static func checkKey(_ key: String) throws {
        guard !key.isEmpty else { throw PreferenceError.invalidKey("it is empty") }
        guard key.utf8.count <= maximumKeyBytes else {
            throw PreferenceError.invalidKey("longer than \(maximumKeyBytes) bytes")
        }
    }
}

/// Why an SNTP query gave no time.
public enum SNTPError: UserFacingError, Equatable {
    /// `--server` is not `HOST` or `HOST:PORT`.
    case badServer(String)
    /// The host name does not resolve (no network, a typo).
    case unresolvable(String, reason: String)
    /// No reply came within the timeout.
    case noAnswer(String, seconds: Double)
    /// A reply came, but is not a usable answer (wrong mode, not our request, a kiss-o'-death…).
    case badReply(String, reason: String)
    /// The socket could not be made or used.
    case network(String, reason: String)

    public var description: String {
        switch self {
        case .badServer(let text):
            "'\(TerminalText.sanitized(text))' is not a server; give HOST or HOST:PORT"
        case .unresolvable(let server, let reason):
            "cannot find the time server \(server) (\(reason))"
        case .noAnswer(let server, let seconds):
            "no answer from the time server \(server) within \(Self.seconds(seconds))"
        case .badReply(let server, let reason):
            "the time server \(server) sent a reply authcat cannot use: \(reason)"
        case .network(let server, let reason):
            "cannot ask the time server \(server): \(reason)"
        }
    }

    /// "3 s", "0.5 s".
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}

/// What can go wrong with the vault the core opens, migrates and writes,
/// said so the user knows what to do. What reading a vault can meet, which
/// the quick front meets too, is AuthCatEssentials' `VaultError`.
public enum VaultStoreError: UserFacingError, Equatable {
    case noVault(String)
    case corrupt(String)
    case newerFormat(String)
    case keyDoesNotMatch(String)
    case passphraseAlreadySet
    case noPassphraseSet
    case keyFileChanged
    case emptyName
    case duplicate(String)
    case notDeleted(String)
    case counterExhausted(String)
    case busy

    public var description: String {
        switch self {
        case .noVault(let path): "no accounts in \(path) yet"
        case .corrupt(let path):
            "the vault database \(path) is damaged or not an authcat vault; it was left untouched (restore it from a backup)"
        case .newerFormat(let path): "the vault \(path) was written by a newer authcat; upgrade authcat to open it"
        case .keyDoesNotMatch(let path): "the key file \(path) does not belong to this vault"
        case .passphraseAlreadySet: "a passphrase is already set"
        case .noPassphraseSet: "no passphrase is set"
        case .keyFileChanged: "another authcat process changed the passphrase meanwhile; nothing was changed, try again"
        case .emptyName: "the account name must not be empty"
        case .duplicate(let label):
            "an account named \(label) already exists (names differing only in case are the same)"
        case .notDeleted(let label): "nothing to restore: \(label) is not removed"
        case .counterExhausted(let label): "the HOTP counter of \(label) cannot advance any further"
        case .busy: "the vault is busy in another authcat process; try again"
        }
    }

    /// Whether the error refuses one account's change, not the vault.
    var isAboutOneAccount: Bool {
        switch self {
        case .emptyName, .duplicate, .counterExhausted: true
        default: false
        }
    }

    public var nextStep: NextStep? {
        switch self {
        case .noVault: .addAccount
        case .passphraseAlreadySet: .changePassphrase
        case .noPassphraseSet: .setPassphrase
        default: nil
        }
    }
}

/// Why a followed file (`authcat follow`) cannot be added, found or named.
public enum FollowError: UserFacingError, Equatable {
    case invalidName(String)
    case nameTaken(String)
    case pathTaken(String, by: String)
    case notFound(String)

    public var description: String {
        switch self {
        case .invalidName(let name):
            "'\(TerminalText.sanitized(String(name.prefix(80))))' cannot name a followed file: use 1 to "
                + "\(FollowedFile.maximumNameLength) bytes of printable text without ':' or '/'"
        case .nameTaken(let name):
            "a followed file is already called '\(TerminalText.sanitized(name))'; give another with --name"
        case .pathTaken(let path, let name):
            "\(TerminalText.sanitized(path)) is already followed, as '\(TerminalText.sanitized(name))'"
        case .notFound(let name):
            "no followed file is called '\(TerminalText.sanitized(name))'; 'authcat follow list' shows them"
        }
    }
}
