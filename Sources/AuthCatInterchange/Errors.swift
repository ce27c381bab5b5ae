import AuthCatCore
import AuthCatEssentials
import Foundation

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
    /// A ZIP archive whose directory cannot be read, so that its format is not known.
    case unreadableArchive(String)

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
        case .unreadableArchive(let why):
            "the file is a ZIP archive that cannot be read: \(why); nothing was imported"
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

    /// An OTP type the format carries that authcat cannot read from it, said
    /// with the types this format brings and where the others come in, so
    /// that every format's message agrees.
    static func unsupportedType(_ type: String, thisFormatReads types: String) -> EntryProblem {
        .unsupported(
            "OTP type '\(shown(type))' is not supported here (this format brings \(types); Yandex and mOTP accounts "
                + "come in from an Aegis file, or with 'authcat add --type yandex' or '--type motp')")
    }

    /// A short, printable excerpt of a word from the file, for a message.
    static func shown(_ text: String) -> String {
        String(text.unicodeScalars.prefix(16).map { (0x21...0x7e).contains($0.value) ? Character($0) : "?" })
    }
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

/// Why old backups could not be rotated out. The new backup is written and verified by then.
public enum BackupRotationError: UserFacingError, Equatable {
    case cannotList(String)
    case cannotDelete(String, reason: String)

    public var description: String {
        switch self {
        case .cannotList(let folder):
            "the backup was written and verified, but the folder \(folder) could not be listed to delete old backups"
        case .cannotDelete(let path, let reason):
            "the backup was written and verified, but the old backup \(path) could not be deleted: \(reason)"
        }
    }
}

/// A file that changed between the moment authcat judged it and the moment
/// it opened it: someone swapped it meanwhile.
public struct SwappedPathError: UserFacingError, Equatable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public var description: String {
        "refusing \(path): it was replaced by something else while authcat opened it; choose a path in a folder only you can write"
    }
}

/// A path authcat refuses to read a secret from or write one to: a link or
/// file owned by another user, in a folder others can write, which that
/// user could have planted to catch the secret or to feed authcat theirs.
public struct PlantedPathError: UserFacingError, Equatable {
    /// The path as the user gave it.
    public let path: String
    /// The link or file refused: `path` itself, or a hop it leads through.
    public let node: String
    /// "a FIFO", "a symbolic link", "a file"…
    public let kind: String
    public let owner: uid_t
    /// The folder others can write, where `node` stands.
    public let folder: String

    public var description: String {
        let what = node == path ? "it" : node
        return "refusing \(path): \(what) is \(kind) owned by another user (uid \(owner)) in a folder others can write "
            + "(\(folder)); choose a path in a folder only you can write"
    }

    /// How a message names a file of `mode`.
    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO"
        case S_IFREG: "a file"
        case S_IFDIR: "a folder"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "a file"
        }
    }
}

/// Why an output path cannot be written.
public enum OutputDestinationError: UserFacingError, Equatable {
    case exists(String)
    case refused(String, what: String)
    case diskFull(String, existed: Bool)
    case cannotWrite(String, reason: String)

    public var description: String {
        if case .exists(let path) = self { return "\(path) already exists" }
        return "cannot write \(path): \(reason)"
    }

    public var nextStep: NextStep? {
        if case .exists = self { return .replaceFile }
        return nil
    }

    public var path: String {
        switch self {
        case .exists(let path), .refused(let path, _), .diskFull(let path, _), .cannotWrite(let path, _): path
        }
    }

    /// What went wrong, without the path.
    public var reason: String {
        switch self {
        case .exists: "it already exists"
        case .refused(_, let what): "it is \(what), which authcat never replaces; name a file, a FIFO or a device"
        case .diskFull(_, let existed):
            "the disk is full (" + (existed ? "the file was left as it was" : "nothing was written")
                + "); free some space and try again"
        case .cannotWrite(_, let reason): reason
        }
    }
}

/// Why a QR code could not be made or read. Messages never quote the
/// encoded text, which usually holds a secret.
public enum QRError: UserFacingError, Equatable {
    /// The text does not fit in the largest QR code.
    case tooLong(bytes: Int)
    /// libqrencode failed for another reason.
    case encodingFailed
    /// The PNG could not be decoded; carries libpng's message.
    case invalidPNG(String)
    /// An image with more pixels than authcat will decode.
    case imageTooLarge(width: Int, height: Int)
    /// libzbar could not scan the image.
    case scanFailed
    /// libzbar could not be opened: the package libzbar0 is missing.
    case scannerUnavailable
    /// No QR code was found in the image.
    case noCodeFound

    public var description: String {
        switch self {
        case .tooLong(let bytes): "\(bytes) bytes is too much for one QR code"
        case .encodingFailed: "the QR code could not be made (libqrencode failed)"
        case .invalidPNG(let why): "the image is not a readable PNG: \(why)"
        case .imageTooLarge(let width, let height):
            "the image is \(width)×\(height) pixels, too large to scan; crop it to the QR codes"
        case .scanFailed: "the image could not be scanned (libzbar failed)"
        case .scannerUnavailable: "reading QR codes needs libzbar (Debian package libzbar0), which could not be loaded"
        case .noCodeFound: "no QR code was found in the image; use a sharp, uncropped screenshot of the codes"
        }
    }
}
