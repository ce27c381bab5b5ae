import AuthCatEssentials
import Glibc

/// The vault, opened read-only for the quick front, and read through
/// `VaultReader`, the reader the core uses too, on a connection of its own
/// (`VaultReader.ReadOnlyConnection`). Anything unexpected is nil, never an
/// error: the front then hands the command line to `authcat-cli`, which
/// opens the vault properly and says what is wrong.
struct QuickVault {
    /// The one reader of both programs, on the read-only connection; it
    /// leaves notes unread, since the front shows none.
    let reader: VaultReader
    /// What proves that a key is this vault's.
    let keyCheck: VaultKeyCheck

    /// Runs `body` on the vault at `location`, if `Vault.open` would open it:
    /// a key file beside a database with the current schema and its `vault`
    /// row. Everything from the schema check to `body`'s last row is read in
    /// one read transaction (`ReadOnlyConnection.snapshot`): one committed
    /// state, whatever other processes write meanwhile, and SQLite's locks
    /// and checks of the files taken once. Nil when the vault is not so, or
    /// when the transaction cannot begin or end.
    static func read<Result>(_ location: VaultLocation, _ body: (QuickVault) -> Result?) -> Result? {
        guard access(location.keyFilePath, F_OK) == 0,
            DatabaseFileSize.isWhole(atPath: location.databasePath),
            let connection = try? VaultReader.ReadOnlyConnection(path: location.databasePath)
        else { return nil }
        let answer = try? connection.snapshot { () -> Result? in
            let reader = connection.reader(readingNotes: false)
            guard let migrations = try? reader.migrations(), VaultSchemaVersion.isCurrent(migrations),
                let keyCheck = try? reader.keyCheck()
            else { return nil }
            return body(QuickVault(reader: reader, keyCheck: keyCheck))
        }
        return answer ?? nil
    }
}
