import AuthCatEssentials
import GRDBSQLite
import Glibc

/// The vault, opened read-only with SQLite's C interface for the quick
/// front, and read through `VaultReader`, the reader the core uses too.
/// Anything unexpected is nil, never an error: the front then hands the
/// command line to `authcat-cli`, which opens the vault properly and says
/// what is wrong.
final class QuickVault {
    private let connection: OpaquePointer
    /// The one reader of both programs, on this read-only connection; it
    /// leaves notes unread, since the front shows none.
    let reader: VaultReader
    /// What proves that a key is this vault's.
    let keyCheck: VaultKeyCheck

    /// The vault at `location`, if `Vault.open` would open it: a key file
    /// beside a database with the current schema and its `vault` row.
    init?(_ location: VaultLocation) {
        guard access(location.keyFileURL.path, F_OK) == 0,
            DatabaseFileSize.isWhole(atPath: location.databaseURL.path)
        else { return nil }
        var connection: OpaquePointer?
        // NOMUTEX: one thread uses the connection, so SQLite need not lock
        // it around every call (two calls per text column of every row).
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(location.databaseURL.path, &connection, flags, nil) == SQLITE_OK, let connection else {
            sqlite3_close(connection)
            return nil
        }
        self.connection = connection
        sqlite3_busy_timeout(connection, 10_000)
        let reader = VaultReader(connection: connection, readingNotes: false)
        guard (try? reader.migrations()) == VaultSchemaVersion.migrations, let keyCheck = try? reader.keyCheck() else {
            sqlite3_close(connection)
            return nil
        }
        self.reader = reader
        self.keyCheck = keyCheck
    }

    deinit {
        sqlite3_close(connection)
    }

    /// Runs `body` in one read transaction, so that everything it reads (an
    /// account, then its sealed secret) comes from the same committed state,
    /// whatever other processes write meanwhile. Nil when it cannot begin.
    func snapshot<Result>(_ body: () -> Result?) -> Result? {
        guard sqlite3_exec(connection, "BEGIN", nil, nil, nil) == SQLITE_OK else { return nil }
        defer { sqlite3_exec(connection, "COMMIT", nil, nil, nil) }
        return body()
    }
}
