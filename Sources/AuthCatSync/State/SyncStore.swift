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

    private init(url: URL, database: DatabaseQueue) {
        self.url = url
        self.database = database
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
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        do {
            let database = try DatabaseQueue(path: url.path, configuration: configuration)
            if try database.read({ try migrator.hasBeenSuperseded($0) }) {
                throw SyncError(.other, "\(url.path) was written by a newer authcat; upgrade authcat to sync")
            }
            try migrator.migrate(database)
            return SyncStore(url: url, database: database)
        } catch let error as DatabaseError {
            throw SyncError.malformedState(url.path, error.message ?? "\(error.resultCode)")
        }
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
    func state() throws -> SyncStateRecord? {
        try read { try SyncStateRecord.fetchOne($0) }
    }

    /// The state row of an open store, which must exist.
    static func requiredState(_ store: SyncStore) throws -> SyncStateRecord {
        try store.read { try requiredState($0) }
    }

    /// The state row, which must exist.
    static func requiredState(_ db: Database) throws -> SyncStateRecord {
        guard let state = try SyncStateRecord.fetchOne(db) else { throw SyncStoreError.malformed("no state row") }
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

/// The local sync state file holds something this version cannot read.
enum SyncStoreError: UserFacingError {
    case malformed(String)

    var description: String {
        switch self {
        case .malformed(let detail): "the sync state file is damaged: \(detail)"
        }
    }
}
