import AuthCatEssentials
import Glibc

/// The vault, opened read-only for the quick front, and read through
/// `VaultReader`, the reader the core uses too, on a connection of its own
/// (`VaultReader.ReadOnlyConnection`). Anything unexpected is nil, never an
/// error: the front then hands the command line to `authcat-cli`, which
/// opens the vault properly and says what is wrong.
final class QuickVault {
    private let connection: VaultReader.ReadOnlyConnection
    /// The one reader of both programs, on this read-only connection; it
    /// leaves notes unread, since the front shows none.
    let reader: VaultReader
    /// What proves that a key is this vault's.
    let keyCheck: VaultKeyCheck

    /// The vault at `location`, if `Vault.open` would open it: a key file
    /// beside a database with the current schema and its `vault` row.
    init?(_ location: VaultLocation) {
        guard access(location.keyFilePath, F_OK) == 0,
            DatabaseFileSize.isWhole(atPath: location.databasePath),
            let connection = try? VaultReader.ReadOnlyConnection(path: location.databasePath)
        else { return nil }
        let reader = connection.reader(readingNotes: false)
        guard (try? reader.migrations()) == VaultSchemaVersion.migrations, let keyCheck = try? reader.keyCheck() else {
            return nil
        }
        self.connection = connection
        self.reader = reader
        self.keyCheck = keyCheck
    }

    /// Runs `body` in one read transaction (`ReadOnlyConnection.snapshot`).
    /// Nil when it cannot begin or end.
    func snapshot<Result>(_ body: () -> Result?) -> Result? {
        (try? connection.snapshot(body)) ?? nil
    }
}
