import AuthCatCore
import AuthCatEssentials

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
