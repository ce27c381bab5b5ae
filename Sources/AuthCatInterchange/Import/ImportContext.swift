import AuthCatCore
import AuthCatEssentials
import Foundation

/// What a parser may need besides the file's bytes: a way to ask for the
/// password of an encrypted file. It is called only for encrypted files, at
/// most once per parse.
public struct ImportContext: Sendable {
    /// Asked for the password of an encrypted Aegis vault or authcat backup.
    public var password: @Sendable () throws -> SecretBytes
    /// Turns a backup's key derivation parameters into its key. By default
    /// it asks `password` and runs Argon2id; tests and benchmarks pass a
    /// known key to leave the KDF out.
    public var backupKey: (@Sendable (KDFParameters) throws -> SecretBytes)?
    /// The import file's own name (its last path component); nil for standard input.
    public var fileName: String?
    /// Reads the file of a plain name (no folder) beside the import file, or
    /// nil when there is none: formats made of several files (Steam Desktop
    /// Authenticator's `manifest.json` and its `.maFile`s) find the others so.
    public var companion: @Sendable (String) throws -> Data? = { _ in nil }

    public init(
        password: @escaping @Sendable () throws -> SecretBytes = { throw ImportError.passwordRequired },
        backupKey: (@Sendable (KDFParameters) throws -> SecretBytes)? = nil
    ) {
        self.password = password
        self.backupKey = backupKey
    }

    /// The key of a backup whose header holds `kdf`. Its limits are checked
    /// before the password is asked for: a hostile header is refused at once.
    func key(forBackupWith kdf: KDFParameters) throws -> SecretBytes {
        do {
            try kdf.checkLimits()
        } catch let error as KeyDerivationLimitError {
            throw error.from("the backup")
        } catch AuthCatEssentials.CryptoError.invalidInput(let why) {
            throw BackupError.unsupportedKeyDerivation(why)
        }
        if let backupKey { return try backupKey(kdf) }
        return try kdf.deriveKey(from: password())
    }
}
