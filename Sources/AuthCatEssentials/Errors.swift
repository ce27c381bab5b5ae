#if canImport(FoundationEssentials)
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

// Every error AuthCatEssentials throws, together: what each says to a user
// is read and reviewed in one place. None quotes a secret, a passphrase or
// SQL arguments; the command line prefixes `authcat: ` and words `nextStep`.

/// An error whose description is safe to show a user.
///
/// The description says what failed; `nextStep` names what the user can do
/// about it, and the program that shows the error words it (the command line
/// spells the command). It never contains a secret, a passphrase or SQL arguments.
public protocol UserFacingError: Error, CustomStringConvertible {
    var nextStep: NextStep? { get }
}

extension UserFacingError {
    public var nextStep: NextStep? { nil }
}

/// The one wording for an error that no layer knew how to explain: what
/// failed and the error's type, never its values (which could hold a secret).
public enum UnexpectedError {
    public static func message(_ operation: String, _ error: Error) -> String {
        "\(operation) failed unexpectedly (\(type(of: error)))"
    }
}

/// The user pressed Ctrl-C (or the process got SIGINT) while authcat asked
/// something on the terminal. Nothing the answer was for has happened; every
/// layer lets it through unchanged, and the command line ends with status
/// 130, as the shell's own interrupt would, after putting the terminal back.
public struct PromptInterrupted: UserFacingError, Equatable {
    public init() {}

    public var description: String { "interrupted; nothing was changed" }
}

/// Errors from libsodium, each naming the operation that failed.
public enum CryptoError: UserFacingError, Equatable {
    /// Authenticated decryption failed: wrong key, or the data was changed.
    case authenticationFailed
    /// Input of the wrong size or shape for the operation.
    case invalidInput(String)
    /// libsodium refused an operation that should succeed (out of memory, limits).
    case operationFailed(String)

    public var description: String {
        switch self {
        case .authenticationFailed: "decryption failed: wrong key or passphrase, or the data was altered"
        case .invalidInput(let what): "invalid cryptographic input: \(what)"
        case .operationFailed(let what): "cryptographic operation failed: \(what)"
        }
    }
}

/// Key derivation parameters that ask for more memory or work than authcat
/// allows. Such parameters come from a file or a remote that someone else may
/// have written (an Aegis vault, a backup, the sync manifest), and are read
/// before anything is authenticated, so the bound is checked before any memory
/// is taken: otherwise one file could make authcat use gigabytes or run for hours.
public struct KeyDerivationLimitError: UserFacingError, Equatable {
    /// What the parameters ask for, beyond the allowance.
    public enum Demand: Equatable, Sendable {
        /// Bytes of memory.
        case memory(UInt64, allowed: UInt64)
        /// Argon2id passes over the memory.
        case passes(UInt64, allowed: UInt64)
        /// scrypt's work, N·r·p (each unit one BlockMix of 128·r bytes).
        case scryptWork(UInt64, allowed: UInt64)
        /// PBKDF2 iterations.
        case iterations(UInt64, allowed: UInt64)
    }

    /// Whose parameters they are, as the user knows it: "the Aegis file".
    public var source: String
    public var demand: Demand

    public init(source: String = "the file", demand: Demand) {
        self.source = source
        self.demand = demand
    }

    /// The same error, naming `source` as what asked.
    public func from(_ source: String) -> KeyDerivationLimitError {
        KeyDerivationLimitError(source: source, demand: demand)
    }

    public var description: String {
        let (asked, allowed): (String, String) =
            switch demand {
            case .memory(let bytes, let allowed): ("\(Self.size(bytes)) of memory", Self.size(allowed))
            case .passes(let passes, let allowed): ("\(passes) passes", "\(allowed)")
            case .scryptWork(let work, let allowed): ("scrypt work N·r·p of \(work)", "\(allowed)")
            case .iterations(let count, let allowed): ("\(count) PBKDF2 iterations", "\(allowed)")
            }
        return "\(source) asks for \(asked) for its key derivation; authcat allows at most \(allowed)"
    }

    /// "2.0 GiB", "1 GiB", "256 MiB", "8192 bytes": exact where it is a whole number of units.
    static func size(_ bytes: UInt64) -> String {
        for (unit, shift) in [("GiB", UInt64(30)), ("MiB", 20)] where bytes >= 1 << shift {
            if bytes % (1 << shift) == 0 { return "\(bytes >> shift) \(unit)" }
            let tenths = bytes / ((1 << shift) / 10)
            return "\(tenths / 10).\(tenths % 10) \(unit)"
        }
        return "\(bytes) bytes"
    }
}

/// Why a hexadecimal secret could not be read; never quotes the input.
public enum Base16Error: UserFacingError, Equatable {
    case empty
    /// A character that is not a hex digit; `position` counts characters from 1.
    case invalidCharacter(position: Int)
    /// An odd number of hex digits: half a byte is missing.
    case oddLength(Int)

    public var description: String {
        switch self {
        case .empty: "the secret is empty; an mOTP secret is hexadecimal, such as e3152afee62599c8"
        case .invalidCharacter(let position):
            "the secret has an invalid character at position \(position); an mOTP secret uses only 0 to 9 and a to f"
        case .oddLength(let count):
            "the secret has \(count) hex digits, an odd number; check that it was copied completely"
        }
    }
}

/// Why a Base32 secret could not be read.
///
/// Descriptions name the offending character and its position, never the
/// input itself, because the input is usually a secret.
public enum Base32Error: UserFacingError, Equatable {
    /// Nothing but spaces, dashes or padding.
    case empty
    /// A character outside the Base32 alphabet; `position` counts characters from 1.
    case invalidCharacter(Unicode.Scalar, position: Int)
    /// `=` padding followed by more data; `position` counts characters from 1.
    case misplacedPadding(position: Int)
    /// A number of Base32 characters that no byte string encodes to (1, 3 or 6 more than a multiple of 8).
    case invalidLength(Int)

    /// The well-known example secret a message shows to say what Base32 looks
    /// like; being fixed text, it is no one's secret (tests that look for a
    /// quoted secret leave it out).
    public static let exampleSecret = "JBSWY3DPEHPK3PXP"

    public var description: String {
        switch self {
        case .empty:
            "the secret is empty; it should be a Base32 string such as \(Self.exampleSecret)"
        case .invalidCharacter(let scalar, let position):
            "the secret has an invalid character \(Self.describe(scalar)) at position \(position); "
                + "Base32 uses only the letters A to Z and the digits 2 to 7"
        case .misplacedPadding(let position):
            "the secret has padding \"=\" at position \(position) followed by more characters; "
                + "\"=\" may only appear at the end"
        case .invalidLength(let count):
            "the secret has \(count.counted("Base32 character")), a length no key encodes to; "
                + "check that it was copied completely"
        }
    }

    /// Printable characters in quotes, anything else as `U+XXXX` so that the
    /// message cannot carry control characters to the terminal.
    private static func describe(_ scalar: Unicode.Scalar) -> String {
        let printable =
            scalar.properties.generalCategory != .control && !scalar.properties.isWhitespace
            && scalar.properties.generalCategory != .format
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return printable ? "\"\(scalar)\" (\(code))" : code
    }
}

public enum OTPParameterError: UserFacingError, Equatable {
    case digits(Int, steam: Bool)
    case period(Int)
    case counter
    /// A Yandex or mOTP account with other parameters than its kind's only ones.
    case fixed(OTPKind)
    /// MD5 asked for an account that is not mOTP.
    case md5
    /// A Yandex or mOTP code asked for without the account's PIN.
    case missingPIN(OTPKind)

    public var description: String {
        switch self {
        case .digits(let n, let steam):
            steam ? "steam codes have 5 characters, not \(n)" : "digits must be between 6 and 10, not \(n)"
        case .period(let p): "period must be at least 1 second, not \(p)"
        case .counter: "counter must be between 0 and \(OTPParameters.maximumCounter)"
        case .fixed(let kind):
            if let fixed = kind.fixedParameters {
                "\(kind.rawValue) codes always use \(fixed.algorithm.rawValue), \(fixed.digits) characters and "
                    + "\(fixed.period)-second steps"
            } else {
                "\(kind.rawValue) codes have no fixed parameters"
            }
        case .missingPIN(let kind): "\(kind.rawValue) codes need the account's PIN"
        case .md5: "md5 is used by mOTP codes only; TOTP, HOTP and Steam use sha1, sha256 or sha512"
        }
    }
}

/// Why a PIN or a Yandex secret was refused; never quotes either.
public enum OTPPINError: UserFacingError, Equatable {
    case empty
    case tooLong
    case invalid
    case yandexSecretLength(Int)
    case yandexChecksum
    /// A PIN given for a kind of account that has none.
    case unexpected(OTPKind)

    public var description: String {
        switch self {
        case .empty: "the PIN is empty; Yandex and mOTP codes need the PIN chosen with the issuer"
        case .tooLong: "the PIN is longer than \(OTPPIN.maximumBytes) bytes; check that only the PIN was given"
        case .invalid: "the PIN is not plain text (it has control characters or is not UTF-8)"
        case .yandexSecretLength(let count):
            "a Yandex secret has 16 bytes (26 Base32 characters) or 26 with its checksum (42 characters), not \(count.counted("byte"))"
        case .yandexChecksum: "the Yandex secret's checksum is wrong; check that it was copied completely"
        case .unexpected(let kind): "\(kind.rawValue) accounts have no PIN; only yandex and motp accounts do"
        }
    }
}

public enum SecureFileError: UserFacingError, Equatable {
    case notAFolder(String)
    case cannotWrite(String, reason: String)
    case diskFull(String)

    public var description: String {
        switch self {
        case .notAFolder(let path): "\(path) exists but is not a folder"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .diskFull(let path): "cannot write \(path): the disk is full; free some space and try again"
        }
    }
}

/// What can go wrong reading the vault (finding it, its key file, its
/// accounts), said so the user knows what to do: what the quick front can
/// meet, and answers with the full program's line. What opening, migrating
/// and writing it can meet is AuthCatCore's `VaultStoreError`.
public enum VaultError: UserFacingError, Equatable {
    case noHome
    case unsafePermissions(String, mode: mode_t)
    case foreignOwner(String, owner: uid_t, isFolder: Bool)
    case foreignParent(String, owner: uid_t)
    case missingKeyFile(String)
    case invalidKeyFile(String)
    case wrongPassphrase
    case passphraseRequired
    /// An issuer or name that held bytes that are not UTF-8, as it reads now (`AccountNameRule`).
    case notUTF8(NameField, shown: String)
    /// An issuer or name of more characters than `AccountNameRule.maximumLength`.
    case nameTooLong(NameField, length: Int)
    case notFound(String)
    case ambiguous(String, candidates: [String])
    case storage(String)

    public var description: String {
        switch self {
        case .noHome: "cannot find the vault folder: set AUTHCAT_HOME or HOME"
        case .unsafePermissions(let path, let mode):
            "\(path) is writable by other users (mode \(String(mode, radix: 8))); refusing to use it until you run: chmod go-w \(path)"
        case .foreignOwner(let path, let owner, let isFolder):
            Self.foreignOwnerMessage(path, owner: owner, isFolder: isFolder)
        case .foreignParent(let path, let owner):
            "refusing to create the vault in \(path): \(owner != geteuid() && owner != 0 ? "it belongs to user \(owner)" : "others can write it"), "
                + "who could replace the vault folder with one of theirs; set AUTHCAT_HOME to a folder of your own"
        case .missingKeyFile(let path):
            "the vault key file \(path) is missing; without it the secrets cannot be read (restore it from a backup)"
        case .invalidKeyFile(let path): "the vault key file \(path) is damaged or in an unknown format"
        // No "nothing was changed": most commands that ask change nothing anyway.
        case .wrongPassphrase: "wrong passphrase"
        case .passphraseRequired:
            "this vault is protected by a passphrase: set AUTHCAT_PASSPHRASE_FILE or run in a terminal"
        case .notUTF8(let field, let shown):
            "the \(field.rawValue) is not valid UTF-8: it would read '\(TerminalText.sanitized(String(shown.prefix(64))))', "
                + "with \u{FFFD} for the bytes that are not; give it in UTF-8"
        case .nameTooLong(let field, let length):
            "the \(field.rawValue) is \(length) characters long; at most \(AccountNameRule.maximumLength) are allowed"
        case .notFound(let query): "no account matches \(AccountQuery(query).quotedForMessages)"
        case .ambiguous(let query, let candidates):
            "\(AccountQuery(query).quotedForMessages) matches \(candidates.count) accounts: \(Self.listed(candidates)); give more of the name, or ISSUER:NAME"
        case .storage(let what): "vault storage error: \(what)"
        }
    }

    /// Which text of an account `notUTF8` and `nameTooLong` are about.
    public enum NameField: String, Sendable {
        case issuer
        case name = "account name"
    }

    /// One line with the fix: the folder is chowned as a whole, since every file in it must be yours.
    private static func foreignOwnerMessage(_ path: String, owner: uid_t, isFolder: Bool) -> String {
        let folder = isFolder ? path : String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        let what = isFolder ? "the vault folder \(path)" : "the vault file \(path)"
        let risk = isFolder ? "that user could swap the vault's files" : "that user could change it"
        return "\(what) belongs to user \(owner), not you, and \(risk); refusing to use it "
            + "(fix: if the vault is yours, run as root: chown -R \(geteuid()) \(folder); else set AUTHCAT_HOME to a folder of your own)"
    }

    /// The first few of many names, then how many more: one readable line
    /// even when a short query matches thousands of accounts.
    /// The labels of accounts a query matched, each followed by its id when
    /// another has the same label (case ignored): an older vault, or a
    /// device that synced before labels had to differ, can hold such a pair,
    /// and then only the id tells them apart.
    public static func distinctLabels(_ accounts: [some AccountNaming]) -> [String] {
        var counts: [String: Int] = [:]
        for account in accounts { counts[account.label.lowercased(), default: 0] += 1 }
        return accounts.map { account in
            counts[account.label.lowercased(), default: 0] > 1
                ? "\(account.label) (id \(account.id.vaultString))" : account.label
        }
    }

    static func listed(_ names: [String], shown: Int = 8) -> String {
        let head = names.prefix(shown).joined(separator: ", ")
        return names.count > shown ? "\(head) and \(names.count - shown) more" : head
    }
}

/// SQLite failed while the vault was read; `resultCode` is its (extended) result code.
public struct VaultReadError: Error, Equatable {
    public let resultCode: Int32

    public init(resultCode: Int32) {
        self.resultCode = resultCode
    }
}

public enum VaultKeyringError: UserFacingError, Equatable {
    case unavailable(String)
    case durationOutOfRange(Int)

    public var description: String {
        switch self {
        case .unavailable(let reason):
            "the kernel keyring cannot keep the vault key (\(reason)); set AUTHCAT_PASSPHRASE_FILE instead"
        case .durationOutOfRange(let seconds):
            "cannot keep the vault unlocked for \(seconds) seconds: from 1 second to 30 days"
        }
    }
}
