import GRDB

extension Vault {
    /// Runs `body`, turning SQLite's errors into `VaultError`s a user can act on.
    static func translatingErrors<T>(_ location: VaultLocation, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw translate(error, location: location)
        }
    }

    /// Reads in one transaction, translating errors.
    func translatingErrors<T>(_ body: (Database) throws -> T) throws -> T {
        try Self.translatingErrors(location) { try database.read(body) }
    }

    private static func translate(_ error: DatabaseError, location: VaultLocation) -> VaultError {
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: .corrupt(location.databaseURL.path)
        case .SQLITE_BUSY, .SQLITE_LOCKED: .busy
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_IOERR:
            .storage("cannot open or write \(location.databaseURL.path) (\(error.resultCode))")
        // GRDB hides statement arguments by default, so the message names no secret.
        default: .storage(error.message ?? "\(error.resultCode)")
        }
    }
}
