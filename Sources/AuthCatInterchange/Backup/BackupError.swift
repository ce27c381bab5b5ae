import AuthCatCore
import AuthCatEssentials

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
