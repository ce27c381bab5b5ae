import AuthCatCore
import AuthCatEssentials

// AuthCatInterchange's errors, kept together: what the commands show
// (`ImportError`, `BackupError`), and what parsers throw inside the library.

/// Why an import, an export or a backup could not be done. Nothing in the
/// vault was changed when one is thrown; no message holds a secret.
public enum ImportError: UserFacingError, Equatable {
    /// No known format matched the file.
    case unrecognizedFormat
    /// The file is empty, or holds only blank space.
    case empty
    /// The file is an image (PNG, JPEG, …), which only `--qr` reads.
    case image(String)
    /// The file starts like JSON but does not parse.
    case damagedJSON
    /// The file is not what its format requires (not JSON, a missing list, …).
    case malformed(ImportFormat, String)
    /// An encrypted variant authcat cannot read.
    case encryptedUnsupported(ImportFormat, hint: String)
    /// The password does not open the file, or the file was altered.
    case wrongPassword(ImportFormat)
    /// Some entries are malformed; the import was refused as a whole.
    case invalidEntries([ImportRejection])
    /// A file that is too large to be an export of accounts.
    case tooLarge(limit: Int)
    /// An encrypted file, and no way to ask for its password.
    case passwordRequired

    public var nextStep: NextStep? {
        switch self {
        case .unrecognizedFormat: .nameImportFormat
        case .image(let kind): kind == "PNG" ? .readQRCodes : .convertToPNG
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .unrecognizedFormat:
            "the file's format was not recognised"
        case .empty:
            "the file is empty; nothing was imported"
        case .image(let kind) where kind == "PNG":
            "the file is a PNG image"
        case .image(let kind):
            "the file is a \(kind) image, and QR codes are read from PNG images only"
        case .damagedJSON:
            "the file looks like JSON but does not parse (truncated or damaged?); nothing was imported"
        case .malformed(let format, let why):
            "this is not a valid \(format.displayName): \(why)"
        case .encryptedUnsupported(let format, let hint):
            "this \(format.displayName) is encrypted, which authcat cannot read; \(hint)"
        case .wrongPassword(let format):
            "the password does not open this \(format.displayName) (or the file was altered); nothing was imported"
        case .invalidEntries(let rejections):
            "\(rejections.count) \(rejections.count == 1 ? "entry is" : "entries are") invalid, so nothing was imported: "
                + rejections.prefix(10).map(\.description).joined(separator: "; ")
                + (rejections.count > 10 ? "; and \(rejections.count - 10) more" : "")
        case .passwordRequired:
            "this file is encrypted: set AUTHCAT_IMPORT_PASSPHRASE_FILE or run in a terminal to be asked for its password"
        case .tooLarge(let limit):
            "the file is larger than \(limit >> 20) MiB, too large for an export of accounts"
        }
    }
}

/// Why a backup could not be written, read or verified. Whenever one is
/// thrown on restore, the vault is unchanged.
public enum BackupError: UserFacingError, Equatable {
    /// The file does not start with the backup magic.
    case notABackup
    /// A format version this authcat does not know.
    case newerVersion(UInt16)
    /// Key derivation parameters that are unknown or out of the accepted range.
    case unsupportedKeyDerivation(String)
    /// The first chunk does not decrypt: the passphrase is wrong, or the header was altered.
    case wrongPassphraseOrAltered
    /// A later chunk does not decrypt: the file was altered or damaged.
    case damaged(chunk: Int)
    /// The file ends before its final chunk.
    case truncated
    /// Bytes follow the final chunk.
    case trailingData
    /// It decrypts, but what it holds is not a valid backup.
    case invalidContent(String)

    public var description: String {
        switch self {
        case .notABackup:
            "this is not an authcat backup (it does not start with AUTHCATB)"
        case .newerVersion(let version):
            "this backup has format version \(version), written by a newer authcat; upgrade authcat to read it"
        case .unsupportedKeyDerivation(let why):
            "this backup's key derivation cannot be used: \(why)"
        case .wrongPassphraseOrAltered:
            "the backup could not be decrypted: wrong passphrase, or the file was altered"
        case .damaged(let chunk):
            "the backup is damaged or was altered: chunk \(chunk) does not authenticate"
        case .truncated:
            "the backup is incomplete: it ends before its final chunk (cut off while copying?)"
        case .trailingData:
            "the backup has extra bytes after its final chunk; it was altered"
        case .invalidContent(let why):
            "the backup decrypts but its content is invalid: \(why)"
        }
    }
}

/// Why one entry of an import file cannot become an account. Parsers throw
/// it while reading an entry; `ParsedImport.read` turns it into a rejection.
enum EntryProblem: Error, Equatable {
    /// The entry is malformed: a missing field, a wrong type, a bad secret.
    case invalid(String)
    /// The entry is well formed but of a kind authcat cannot use (mOTP, Yandex).
    case unsupported(String)
}

/// Describes a `DecodingError` by where it happened, never by the value
/// found there (which could be a secret).
enum DecodingProblem {
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context):
            "\(path(context.codingPath)) has the wrong type"
        case .valueNotFound(_, let context):
            "\(path(context.codingPath)) is missing"
        case .keyNotFound(let key, let context):
            "\(path(context.codingPath + [key])) is missing"
        case .dataCorrupted(let context):
            context.codingPath.isEmpty
                ? "it is not valid JSON (truncated or damaged?)" : "\(path(context.codingPath)) is invalid"
        @unknown default:
            "it could not be read"
        }
    }

    /// `accounts[3].digits`, for a user to find the spot.
    private static func path(_ keys: [CodingKey]) -> String {
        guard !keys.isEmpty else { return "the document" }
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return "field '\(text)'"
    }
}
