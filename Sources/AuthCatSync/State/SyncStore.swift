import AuthCatCore
import AuthCatEssentials
import Foundation
import GRDB

/// `sync.sqlite` in the vault folder: this device's sync state, peers' chain
/// positions and the field clocks of every synced record. Mode 0600; its
/// schema is in docs/FORMAT.md §5.
final class SyncStore: Sendable {
    static let fileName = "sync.sqlite"

    let url: URL
    let database: DatabaseQueue
    /// The file this store opened, to tell whether it is still the one at its name.
    let file: FileIdentity?

    private init(url: URL, database: DatabaseQueue, file: FileIdentity?) {
        self.url = url
        self.database = database
        self.file = file
    }

    static func url(in location: VaultLocation) -> URL {
        location.folder.appendingPathComponent(fileName)
    }

    /// Opens the store, or returns nil if this vault never had sync set up.
    static func openIfPresent(in location: VaultLocation) throws -> SyncStore? {
        let url = url(in: location)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try open(url)
    }

    /// Opens the store, creating an empty one (0600) if needed.
    static func openOrCreate(in location: VaultLocation) throws -> SyncStore {
        let url = url(in: location)
        try SecureFile.createEmptyFileIfMissing(url)
        return try open(url)
    }

    private static func open(_ url: URL) throws -> SyncStore {
        var configuration = Configuration()
        // As the vault's (Vault.openDatabase): WAL is a property of the file,
        // set once; the pragma only reads it afterwards. GRDB's `journalMode =
        // .wal` would write to the file at every open, taking the write lock
        // that a sync stopped mid-transaction holds: `sync status` would wait.
        configuration.prepareDatabase { db in
            // In another mode a writer would block every reader: refuse it rather than wait.
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                throw DatabaseError(message: "cannot use write-ahead logging")
            }
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        configuration.busyMode = .timeout(10)
        do {
            let database = try DatabaseQueue(path: url.path, configuration: configuration)
            let (superseded, current) = try database.read {
                (try migrator.hasBeenSuperseded($0), try migrator.hasCompletedMigrations($0))
            }
            if superseded {
                throw SyncError(.other, "\(url.path) was written by a newer authcat; upgrade authcat to sync")
            }
            // Migrating takes the write lock even when there is nothing to do.
            if !current { try migrator.migrate(database) }
            return SyncStore(url: url, database: database, file: FileIdentity(path: url.path))
        } catch let error as DatabaseError {
            throw SyncError.malformedState(url.path, error.message ?? "\(error.resultCode)")
        }
    }

    /// This store, if the file at its name is still the one it opened (not
    /// set aside, or replaced, meanwhile); nil otherwise.
    func ifStillAtItsName() -> SyncStore? {
        guard let file, FileIdentity(path: url.path) == file else { return nil }
        return self
    }

    /// Runs `body` in one read transaction, translating SQLite errors.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try translating { try database.read(body) }
    }

    /// Runs `body` in one write transaction, translating SQLite errors.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try translating { try database.write(body) }
    }

    /// The state row, or nil if sync was never set up.
    func state() throws -> SyncStore.StateRecord? {
        try read { try SyncStore.StateRecord.fetchOne($0) }
    }

    /// The state row of an open store, which must exist.
    static func requiredState(_ store: SyncStore) throws -> SyncStore.StateRecord {
        try store.read { try requiredState($0) }
    }

    /// The state row, which must exist.
    static func requiredState(_ db: Database) throws -> SyncStore.StateRecord {
        guard let state = try SyncStore.StateRecord.fetchOne(db) else { throw SyncStoreError.malformed("no state row") }
        return state
    }

    private func translating<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw SyncError.malformedState(url.path, error.message ?? "\(error.resultCode)")
        } catch let error as SyncStoreError {
            throw SyncError.malformedState(url.path, error.description)
        }
    }
}

/// A file as the kernel knows it, whatever path leads to it.
struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64

    /// The file at `path` now; nil when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
