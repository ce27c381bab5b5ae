import AuthCatEssentials
import GRDB

extension Vault {
    /// Runs `body`, turning SQLite's errors into errors a user can act on.
    static func translatingErrors<T>(_ location: VaultLocation, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw translate(error, location: location)
        } catch let error as VaultReadError {
            throw translate(DatabaseError(resultCode: ResultCode(rawValue: error.resultCode)), location: location)
        }
    }

    /// Reads in one transaction, translating errors.
    func translatingErrors<T>(_ body: (Database) throws -> T) throws -> T {
        try Self.translatingErrors(location) { try database.read(body) }
    }

    /// What a user can do about an SQLite error; never SQLite's own text,
    /// which can name tables and constraints but says nothing useful.
    private static func translate(_ error: DatabaseError, location: VaultLocation) -> Error {
        let path = location.databaseURL.path
        switch error.resultCode {
        case .SQLITE_FULL: return SecureFileError.diskFull(path)
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: return VaultStoreError.corrupt(path)
        case .SQLITE_BUSY, .SQLITE_LOCKED: return VaultStoreError.busy
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_IOERR:
            // A full disk shows as an I/O error where SQLite extends a file with ftruncate or mmap.
            if SecureFile.isNearlyFull(location.folder.path) { return SecureFileError.diskFull(path) }
            return VaultError.storage("cannot open or write \(path) (\(error.resultCode))")
        default:
            return VaultError.storage("\(path) failed (\(error.resultCode)); nothing was changed")
        }
    }
}
