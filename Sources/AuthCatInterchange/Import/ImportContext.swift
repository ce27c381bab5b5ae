import AuthCatCore
import AuthCatEssentials

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
