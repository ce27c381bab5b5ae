import AuthCatEssentials
import Foundation
import GRDB
import Synchronization

/// The local encrypted vault: accounts, their sealed secrets, synced
/// preferences and the history of every change, in one SQLite database.
///
/// Reading labels never needs the vault key; the key (and so the passphrase,
/// if one is set) is loaded the first time a secret is needed.
public final class Vault: Sendable {
    public let location: VaultLocation
    /// This vault and this device, as recorded when the vault was created.
    public let identity: VaultIdentity
    let database: DatabaseQueue
    let clock: Clock
    /// Proves that a key is this vault's, as the quick front checks it too.
    let keyCheck: VaultKeyCheck
    let passphrase: @Sendable () throws -> SecretBytes
    /// Held while the key is loaded, so that the passphrase is asked for once.
    let unlocked = Mutex(UnlockedKey())

    struct UnlockedKey {
        var key: SecretBytes?
        /// The key file as it was when the key was unwrapped from it (nil while
        /// the key came from the keyring).
        var keyFile: VaultKeyFile?
    }

    private init(
        location: VaultLocation, database: DatabaseQueue, identity: VaultIdentity, keyCheck: VaultKeyCheck,
        clock: Clock,
        passphrase: @escaping @Sendable () throws -> SecretBytes
    ) {
        self.location = location
        self.database = database
        self.identity = identity
        self.keyCheck = keyCheck
        self.clock = clock
        self.passphrase = passphrase
    }

    /// Opens the vault at `location`; throws `VaultStoreError.noVault` if there is
    /// none, and `VaultError.foreignOwner` if it is not the user's own.
    ///
    /// - Parameter passphrase: asked for only when a secret is needed and the
    ///   key is wrapped, while the vault's key is being unlocked: other tasks
    ///   that need the key wait for it, so it must not use this vault itself.
    public static func open(
        at location: VaultLocation, clock: Clock = SystemClock(),
        passphrase: @escaping @Sendable () throws -> SecretBytes = { throw VaultError.passphraseRequired }
    ) throws -> Vault {
        guard location.exists else { throw VaultStoreError.noVault(location.folder.path) }
        // Also here, not only in the command line's check, for every caller that opens a vault.
        try location.checkOwnership()
        guard FileManager.default.fileExists(atPath: location.keyFileURL.path) else {
            throw VaultError.missingKeyFile(location.keyFileURL.path)
        }
        let database = try openDatabase(location)
        let row = try translatingErrors(location) {
            try database.read { db in
                try Row.fetchOne(db, sql: "SELECT vaultID, deviceID, deviceName, keyCheck FROM vault")
            }
        }
        guard let row else { throw VaultStoreError.corrupt(location.databaseURL.path) }
        let identity = VaultIdentity(vaultID: row["vaultID"], deviceID: row["deviceID"], deviceName: row["deviceName"])
        let keyCheck = VaultKeyCheck(vaultID: identity.vaultID, sealed: row["keyCheck"])
        return Vault(
            location: location, database: database, identity: identity, keyCheck: keyCheck, clock: clock,
            passphrase: passphrase)
    }

    /// Opens the vault at `location`, creating it (folder 0700, files 0600,
    /// a fresh random key) if it does not exist yet.
    public static func openOrCreate(
        at location: VaultLocation, deviceName: String, clock: Clock = SystemClock(),
        passphrase: @escaping @Sendable () throws -> SecretBytes = { throw VaultError.passphraseRequired }
    ) throws -> Vault {
        if !location.exists {
            try create(at: location, deviceName: deviceName, clock: clock, passphrase: passphrase)
        }
        return try open(at: location, clock: clock, passphrase: passphrase)
    }

    /// Runs `body` in one immediate write transaction: all its changes and
    /// their history commit together, or none of them do.
    ///
    /// The vault key is unlocked first, outside the transaction, since most
    /// writes seal secrets and a passphrase prompt must not hold the lock.
    @discardableResult
    public func write<T>(author: HistoryAuthor, _ body: (VaultWriter) throws -> T) throws -> T {
        try unlock()
        return try Self.translatingErrors(location) {
            try database.write { db in try body(VaultWriter(db: db, vault: self, author: author)) }
        }
    }

    /// Creates the vault all or nothing, under the folder's lock: the key
    /// file first (written aside and renamed), then the whole database built
    /// under a temporary name and renamed into place. A `vault.sqlite` is
    /// therefore always a complete vault; a process killed, or stopped by a
    /// full disk, part-way leaves at most a key file and temporaries, which
    /// the next creation reuses and removes. A process that waited for the
    /// lock finds the vault another one just made, and uses it.
    private static func create(
        at location: VaultLocation, deviceName: String, clock: Clock,
        passphrase: @escaping () throws -> SecretBytes
    ) throws {
        // Never a vault in a folder another user owns, or could replace: they could swap its key.
        try location.checkOwnership()
        if !FileManager.default.fileExists(atPath: location.folder.path) { try location.checkParentForCreation() }
        try SecureFile.createFolder(location.folder)
        try FileLock.withExclusiveLock(location.lockFileURL) {
            guard !location.exists else { return }
            try removeCreationLeftovers(location)
            let (vaultID, key) = try existingOrNewKey(at: location, passphrase: passphrase)
            let temporary = location.folder.appendingPathComponent("\(creationPrefix)\(UUID().uuidString)")
            do {
                try buildDatabase(
                    at: temporary, location: location, vaultID: vaultID, deviceName: deviceName,
                    keyCheck: try VaultKeyCheck(vaultID: vaultID, key: key).sealed,
                    createdAt: clock.now())
                try SecureFile.flush(temporary)
                try SecureFile.moveIntoPlace(temporary, location.databaseURL)
            } catch {
                try? removeCreationLeftovers(location)
                throw error
            }
        }
    }

    /// Temporary databases of a creation start with this, in the vault folder.
    private static let creationPrefix = ".vault.sqlite.creating-"

    /// Removes what an interrupted creation left: its temporary database
    /// (and SQLite's journal beside it), and log files that no longer have
    /// their database, which SQLite would otherwise replay into a new one.
    /// Called only under the lock and while no `vault.sqlite` exists.
    private static func removeCreationLeftovers(_ location: VaultLocation) throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: location.folder.path)) ?? []
        let orphans = ["-wal", "-shm", "-journal"].map { location.databaseURL.lastPathComponent + $0 }
        for name in names where name.hasPrefix(creationPrefix) || orphans.contains(name) {
            try? FileManager.default.removeItem(at: location.folder.appendingPathComponent(name))
        }
        SecureFile.removeStaleTemporaries(of: location.keyFileURL)
    }

    /// Builds a complete, current database at `url`: schema, the `vault` row,
    /// and WAL mode, turned on last and left in the file's header. The
    /// connection is closed before returning, which leaves no log file.
    private static func buildDatabase(
        at url: URL, location: VaultLocation, vaultID: String, deviceName: String,
        keyCheck: Data, createdAt: Date
    ) throws {
        try SecureFile.createEmptyFileIfMissing(url)
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        configuration.foreignKeysEnabled = true
        try translatingErrors(location) {
            let database = try DatabaseQueue(path: url.path, configuration: configuration)
            try migrator.migrate(database)
            try database.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO vault (singleton, vaultID, deviceID, deviceName, keyCheck, createdAt) VALUES (1, ?, ?, ?, ?, ?)",
                    arguments: [vaultID, UUID().vaultString, deviceName, keyCheck, createdAt.unixMilliseconds])
            }
            try database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
            try database.close()
        }
    }

    /// A key file left without its database (say, the database was deleted) is
    /// reused rather than replaced, so no key is ever silently overwritten.
    private static func existingOrNewKey(
        at location: VaultLocation, passphrase: () throws -> SecretBytes
    ) throws -> (String, SecretBytes) {
        if FileManager.default.fileExists(atPath: location.keyFileURL.path) {
            let file = try VaultKeyFile.read(from: location.keyFileURL)
            return (file.vaultID, try file.unlock(passphrase: passphrase))
        }
        let vaultID = UUID().vaultString
        let key = try SecretBytes.random(count: AEAD.keySize)
        try VaultKeyFile.plain(vaultID: vaultID, key: key).write(to: location.keyFileURL)
        return (vaultID, key)
    }

    /// Opens the database and brings its schema up to date. A file shorter
    /// than its header says (or empty) was cut short: SQLite would read the
    /// missing pages as zeros, or turn an empty file into a new, empty vault.
    private static func openDatabase(_ location: VaultLocation) throws -> DatabaseQueue {
        let path = location.databaseURL.path
        guard SecureFile.size(of: path) ?? 0 > 0, DatabaseFileSize.isWhole(atPath: path) else {
            throw VaultStoreError.corrupt(path)
        }
        var configuration = Configuration()
        // WAL is a persistent property of the database file, so it is turned on
        // once, at creation. GRDB's `journalMode = .wal` would also write to the
        // database on every open (to make sure a WAL file exists), turning every
        // read, even `authcat code`, into a write with fsyncs.
        // FULL: a commit is on disk before a code is printed, so a power cut
        // can never roll back an HOTP counter that was already handed out.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try keepWriteAheadLogFiles(db)
        }
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        return try translatingErrors(location) {
            let database = try DatabaseQueue(path: path, configuration: configuration)
            let (superseded, current) = try database.read { db in
                (try migrator.hasBeenSuperseded(db), try migrator.hasCompletedMigrations(db))
            }
            if superseded { throw VaultStoreError.newerFormat(path) }
            // Migrating takes the write lock even when there is nothing to do.
            if !current { try migrator.migrate(database) }
            return database
        }
    }

    /// The last connection to close would otherwise delete the `-wal` and
    /// `-shm` files, and the next one create them again: file-system work
    /// that costs `authcat code` more than finding the account. They are
    /// kept instead; the log is checkpointed into the database and cut to
    /// zero bytes on that last close, so `vault.sqlite` alone stays complete
    /// and no old page lingers in the log.
    private static func keepWriteAheadLogFiles(_ db: Database) throws {
        try db.execute(sql: "PRAGMA journal_size_limit = 0")
        // Nil only once the connection is closed, and it is being prepared.
        guard let connection = db.sqliteConnection else { throw VaultError.storage("the vault database is closed") }
        try VaultReader.keepWriteAheadLogFiles(connection: connection)
    }
}

/// Which vault this is and which device holds this copy of it.
public struct VaultIdentity: Codable, Equatable, Sendable {
    /// Random id made when the vault was created; the key file carries it too.
    public var vaultID: String
    /// Random id of this copy of the vault: history and sync name devices by it.
    public var deviceID: String
    /// A human name for this device (the host name when the vault was made).
    public var deviceName: String
}
