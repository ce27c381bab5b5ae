internal import CSQLiteConfig
internal import GRDBSQLite

#if canImport(FoundationEssentials)
    import FoundationEssentials
    import Glibc
#else
    import Foundation
#endif

/// Reads accounts out of a vault database with SQLite's C interface: the
/// one list of columns an account is read from, the one way a row becomes
/// an `Account`, and the one lookup of the account a query names.
///
/// Both programs read through it. The quick front, which links neither GRDB
/// nor Foundation, on its own read-only connection; the core on the
/// connection of the GRDB transaction it is in (`Database.sqliteConnection`),
/// so that a lookup made inside a write transaction names the account the
/// write then changes. It borrows the connection: it opens, begins and
/// closes nothing, and leaves no statement behind.
///
/// It is the one user of SQLite's C interface in both programs: the quick
/// front opens its read-only connection here (`ReadOnlyConnection`), and the
/// core's GRDB connections set their one file control here
/// (`keepWriteAheadLogFiles`), so no other file imports `GRDBSQLite` (or
/// `CSQLiteConfig`, the wrapper of SQLite's one variadic function the front calls).
///
/// Failures are thrown: `VaultReadError` when SQLite fails (the core turns
/// its code into the error a user can act on), `VaultError.storage` for a
/// row the schema should not have allowed, and `VaultError.notFound` or
/// `.ambiguous` when a query names no account or several.
public struct VaultReader {
    private let connection: OpaquePointer
    private let selectAccounts: String

    /// A reader on `connection`, which stays open and owned by the caller.
    ///
    /// - Parameter readingNotes: false reads every account with an empty
    ///   note. The quick front shows no notes, and a long note is pages of
    ///   the row that a code or a list never needs.
    public init(connection: OpaquePointer, readingNotes: Bool = true) {
        self.connection = connection
        selectAccounts = "SELECT " + Self.accountFields(readingNotes: readingNotes) + " FROM account"
    }

    /// The columns an `Account` is read from (`AccountColumn.isAccountField`),
    /// in their order, as a select list: with an empty note in the note's
    /// place when notes are not read. Sealed secrets and PINs are not among
    /// them: listing and looking up never need them.
    private static func accountFields(readingNotes: Bool) -> String {
        var list = ""
        var position: Int32 = 0
        while let column = AccountColumn(rawValue: position), column.isAccountField {
            if position > 0 { list += ", " }
            list += column == .note && !readingNotes ? "'' AS note" : column.name
            position += 1
        }
        return list
    }

    // MARK: Accounts

    /// The live accounts (deleted ones too, when asked), sorted for display.
    public func accounts(includingDeleted: Bool = false) throws -> [Account] {
        try accounts(where: includingDeleted ? "1" : "deletedAt IS NULL", []).sortedForDisplay()
    }

    /// The account with this id, deleted or not.
    public func account(id: UUID) throws -> Account? {
        try accounts(where: "id = ?", [id.vaultString]).first
    }

    /// The sealed secret and sealed PIN of the account with this id,
    /// deleted or not: what opening a secret, or changing an account, needs.
    public func sealed(id: UUID) throws -> SealedSecrets? {
        try rows("SELECT sealedSecret, sealedPIN FROM account WHERE id = ?", [id.vaultString]) { statement in
            SealedSecrets(secret: Self.blob(statement, 0) ?? Data(), pin: Self.blob(statement, 1))
        }.first
    }

    /// The `issuer:name` labels of these accounts, deleted ones included, by
    /// their lowercase ids: what a page of history shows, without reading
    /// every account.
    public func labels(ids: Set<String>) throws -> [String: String] {
        var labels: [String: String] = [:]
        // SQLite allows at most 32,766 arguments per statement.
        let sorted = ids.sorted()
        for start in stride(from: 0, to: sorted.count, by: 10_000) {
            let batch = Array(sorted[start..<min(start + 10_000, sorted.count)])
            let names = try rows(
                "SELECT id, issuer, name FROM account WHERE id IN (\(Self.placeholders(batch.count)))", batch
            ) {
                (Self.text($0, 0), Account.label(issuer: Self.text($0, 1), name: Self.text($0, 2)))
            }
            for (id, label) in names { labels[id] = label }
        }
        return labels
    }

    /// The one live account `query` names, by `AccountQuery`'s rules.
    ///
    /// The first two rules, an id and an exact label, go through the primary
    /// key and the identity index, so that `authcat code Issuer:name` costs
    /// the same in a vault of any size. Only when they find nothing are the
    /// id, issuer and name of every live account read for the other two, and
    /// the whole account only of the one found.
    /// - Throws: `VaultError.notFound` or `.ambiguous` (candidates sorted for display).
    public func account(matching text: String) throws -> Account {
        let query = AccountQuery(text)
        if let id = query.id, let account = try accounts(where: "deletedAt IS NULL AND id = ?", [id.vaultString]).first
        {
            return account
        }
        let keys = query.labelKeys
        let exact = try accounts(where: "deletedAt IS NULL AND identityKey IN (\(Self.placeholders(keys.count)))", keys)
        if exact.count == 1 { return exact[0] }
        let matches: [AccountName] = exact.isEmpty ? query.nameMatches(in: try names()) : exact.map(AccountName.init)
        switch matches.count {
        case 0:
            throw VaultError.notFound(text)
        case 1:
            // Read in the caller's transaction, so the account is still there.
            guard let account = try account(id: matches[0].id) else { throw VaultError.notFound(text) }
            return account
        default:
            throw VaultError.ambiguous(text, candidates: VaultError.distinctLabels(matches.sortedForDisplay()))
        }
    }

    /// The id, issuer and name of every live account, or deleted one, or
    /// both, unsorted: all that the name rules and completion read, at a
    /// fraction of the cost of whole accounts.
    public func names(live: Bool = true, deleted: Bool = false) throws -> [AccountName] {
        let condition = live && deleted ? "1" : live ? "deletedAt IS NULL" : deleted ? "deletedAt IS NOT NULL" : "0"
        return try rows("SELECT id, issuer, name FROM account WHERE " + condition, []) { statement in
            AccountName(id: try Self.id(statement, 0), issuer: Self.text(statement, 1), name: Self.text(statement, 2))
        }
    }

    private func accounts(where condition: String, _ arguments: [String]) throws -> [Account] {
        try rows(selectAccounts + " WHERE " + condition, arguments, Self.account)
    }

    // MARK: The vault row and the schema

    /// What proves that a key is this vault's, from the `vault` row; nil
    /// when the row is missing (a database that is not a whole vault).
    public func keyCheck() throws -> VaultKeyCheck? {
        try rows("SELECT vaultID, keyCheck FROM vault", []) { statement in
            VaultKeyCheck(vaultID: Self.text(statement, 0), sealed: Self.blob(statement, 1) ?? Data())
        }.first
    }

    /// The names of the schema migrations the database has had, in order
    /// (compare `VaultSchemaVersion.migrations`).
    public func migrations() throws -> [String] {
        try rows("SELECT identifier FROM grdb_migrations ORDER BY rowid", []) { Self.text($0, 0) }
    }

    // MARK: Rows

    /// The account of a row whose first columns are the account fields of `AccountColumn`.
    private static func account(_ statement: OpaquePointer) throws -> Account {
        func text(_ column: AccountColumn) -> String { Self.text(statement, column.rawValue) }
        func integer(_ column: AccountColumn) -> Int64 { sqlite3_column_int64(statement, column.rawValue) }
        guard let kind = OTPKind(rawValue: text(.kind)), let algorithm = OTPAlgorithm(rawValue: text(.algorithm)) else {
            throw VaultError.storage("an account row has an invalid id, type or algorithm")
        }
        let otp = OTPParameters(
            kind: kind, algorithm: algorithm, digits: Int(integer(.digits)), period: Int(integer(.period)),
            counter: UInt64(max(integer(.counter), 0)))
        let deletedAt =
            sqlite3_column_type(statement, AccountColumn.deletedAt.rawValue) == SQLITE_NULL
            ? nil : Date(unixMilliseconds: integer(.deletedAt))
        return Account(
            id: try id(statement, AccountColumn.id.rawValue), issuer: text(.issuer), name: text(.name), otp: otp,
            tags: Account.tags(fromJSON: text(.tags)), note: text(.note),
            createdAt: Date(unixMilliseconds: integer(.createdAt)),
            updatedAt: Date(unixMilliseconds: integer(.updatedAt)), deletedAt: deletedAt)
    }

    /// Every row of `sql` read by `read`.
    private func rows<T>(_ sql: String, _ arguments: [String], _ read: (OpaquePointer) throws -> T) throws -> [T] {
        var prepared: OpaquePointer?
        try check(sqlite3_prepare_v2(connection, sql, -1, &prepared, nil))
        guard let statement = prepared else { return [] }  // no statement: the SQL was only a comment
        // Finalizing repeats the last step's result, which was checked there.
        defer { sqlite3_finalize(statement) }
        for (index, argument) in arguments.enumerated() {
            try check(sqlite3_bind_text(statement, Int32(index + 1), argument, -1, Self.transient))
        }
        var values: [T] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: values.append(try read(statement))
            case SQLITE_DONE: return values
            case let code: throw VaultReadError(resultCode: code)
            }
        }
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw VaultReadError(resultCode: code) }
    }

    private static func id(_ statement: OpaquePointer, _ column: Int32) throws -> UUID {
        let text = text(statement, column)
        guard let id = UUID(vaultString: text) ?? UUID(uuidString: text) else {
            throw VaultError.storage("an account row has an invalid id, type or algorithm")
        }
        return id
    }

    /// The text of a column; empty for NULL, which the schema does not allow where text is read.
    private static func text(_ statement: OpaquePointer, _ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        return String(
            decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column))),
            as: UTF8.self)
    }

    private static func blob(_ statement: OpaquePointer, _ column: Int32) -> Data? {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return nil }
        guard let bytes = sqlite3_column_blob(statement, column) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, column)))
    }

    /// `?, ?, ?` for `count` arguments. Not `joined(separator:)`, whose
    /// unspecialised code makes the runtime look up its associated types by
    /// searching the binary's conformances, at every `authcat code`.
    private static func placeholders(_ count: Int) -> String {
        var text = ""
        for index in 0..<count { text += index == 0 ? "?" : ", ?" }
        return text
    }

    /// SQLite copies bound text at once (SQLITE_TRANSIENT, which Swift cannot import as a constant).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

extension VaultReader {
    /// A read-only connection of its own to a vault database, for the quick
    /// front, which links no GRDB: opened without following a symbolic link
    /// and closed when released.
    public final class ReadOnlyConnection {
        private let handle: OpaquePointer

        /// Opens the database at `path`; waits up to 10 s for a writer's lock, as the core does.
        ///
        /// When the write-ahead log's index (`-shm`) exists, it is opened
        /// read-only (SQLite's `readonly_shm`, with its own copy of the index
        /// since SQLite 3.22), so that reading writes nothing once the log and
        /// its index exist: a connection that may write the index and finds no
        /// other connection rebuilds it first (truncates the file, writes a
        /// byte into each of its eight pages, takes and drops eight locks), at
        /// every `authcat code`. A read-only one that finds no other connection
        /// builds its copy from the log instead, from nothing when the log is
        /// empty, as the core leaves it; one that finds another reads through
        /// the shared index, and fails where it would have to change it (claim
        /// a reader's slot, repair it), which the front answers by handing the
        /// command to the full program. Without the file there is nothing to
        /// open read-only, and SQLite makes it (and the log, if missing).
        /// - Throws: `VaultReadError` with SQLite's result code.
        public init(path: String) throws {
            var opened: OpaquePointer?
            // NOMUTEX: one thread uses the connection, so SQLite need not lock
            // it around every call (two calls per text column of every row).
            var flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX
            var name = path
            if access(path + "-shm", F_OK) == 0 {
                flags |= SQLITE_OPEN_URI
                name = Self.uri(path: path, query: "readonly_shm=1")
            }
            let status = sqlite3_open_v2(name, &opened, flags, nil)
            guard status == SQLITE_OK, let opened else {
                // SQLite may hand out a handle even when opening fails; it must still be closed.
                sqlite3_close(opened)
                throw VaultReadError(resultCode: status == SQLITE_OK ? SQLITE_CANTOPEN : status)
            }
            let timeout = sqlite3_busy_timeout(opened, 10_000)
            guard timeout == SQLITE_OK else {
                sqlite3_close(opened)
                throw VaultReadError(resultCode: timeout)
            }
            handle = opened
        }

        /// Tells SQLite, before its first use, that one thread uses it for a
        /// short read: it then takes no mutex, counts no memory (a mutex at
        /// every allocation) and sets no memory aside ahead of use (pages the
        /// kernel must map), which saves the quick front about a tenth of
        /// SQLite's work and a tenth of its page faults (docs/PERFORMANCE.md).
        /// Only for a program with one thread that reads a few pages, such as
        /// the front; never in one that uses GRDB. Afterwards, SQLite refuses
        /// it and nothing changes.
        /// - Returns: whether SQLite took it.
        @discardableResult
        package static func configureForOneShortRead() -> Bool {
            authcat_sqlite3_config_one_short_read() == SQLITE_OK
        }

        /// A `file:` URI that names `path` whatever its characters: every byte
        /// but a letter, a digit and `/._~-` escaped, so that none is read as
        /// the start of the query (`?`), the fragment (`#`) or an escape (`%`),
        /// and an absolute path after an empty authority, so that a path
        /// starting `//` names no host (https://sqlite.org/uri.html).
        static func uri(path: String, query: String) -> String {
            var uri = path.hasPrefix("/") ? "file://" : "file:"
            for byte in path.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "_"),
                    UInt8(ascii: "~"), UInt8(ascii: "-"):
                    uri.unicodeScalars.append(Unicode.Scalar(byte))
                default:
                    uri.unicodeScalars.append(contentsOf: ["%", hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
                }
            }
            return uri + "?" + query
        }

        private static let hexDigits = Array("0123456789ABCDEF".unicodeScalars)

        deinit {
            // Nothing is left open on it (the reader finalizes every statement),
            // so closing cannot fail with SQLITE_BUSY.
            sqlite3_close(handle)
        }

        /// The one reader on this connection; `readingNotes` as for `VaultReader.init`.
        public func reader(readingNotes: Bool = true) -> VaultReader {
            VaultReader(connection: handle, readingNotes: readingNotes)
        }

        /// Runs `body` in one read transaction, so that everything it reads
        /// (an account, then its sealed secret) comes from the same committed
        /// state, whatever other processes write meanwhile.
        /// - Throws: `VaultReadError` when the transaction cannot begin or end, or what `body` throws.
        public func snapshot<Result>(_ body: () throws -> Result) throws -> Result {
            try execute("BEGIN")
            let result: Result
            do {
                result = try body()
            } catch {
                // The error that matters is the body's; a read transaction that
                // cannot be rolled back ends when the connection closes.
                _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
                throw error
            }
            try execute("COMMIT")
            return result
        }

        private func execute(_ sql: String) throws {
            let status = sqlite3_exec(handle, sql, nil, nil, nil)
            guard status == SQLITE_OK else { throw VaultReadError(resultCode: status) }
        }
    }

    /// Keeps a database's `-wal` and `-shm` files when its last connection
    /// closes (`SQLITE_FCNTL_PERSIST_WAL`) on a connection the caller owns
    /// (the core's, through GRDB): the core's one use of SQLite's C interface.
    /// - Throws: `VaultReadError` with SQLite's result code.
    public static func keepWriteAheadLogFiles(connection: OpaquePointer) throws {
        var persist: Int32 = 1
        let status = sqlite3_file_control(connection, nil, SQLITE_FCNTL_PERSIST_WAL, &persist)
        guard status == SQLITE_OK else { throw VaultReadError(resultCode: status) }
    }
}

/// An account's secret and PIN as the vault stores them, sealed under the vault key.
public struct SealedSecrets: Sendable {
    public var secret: Data
    /// Set exactly for the kinds that need a PIN.
    public var pin: Data?
}

/// What the name rules and completion read of an account.
public struct AccountName: AccountNaming, Sendable {
    public var id: UUID
    public var issuer: String
    public var name: String

    public init(id: UUID, issuer: String, name: String) {
        self.id = id
        self.issuer = issuer
        self.name = name
    }

    public init(_ account: Account) {
        self.init(id: account.id, issuer: account.issuer, name: account.name)
    }
}

/// The schema migrations a vault database has when it is current, in order.
///
/// `Migration` names each once: the core's migrator registers a step for
/// each, in this order (its closures are the core's, `Vault+Schema.swift`),
/// and the quick front reads a vault only when it finds exactly these
/// (`isCurrent`), leaving any other vault to the full program, which
/// migrates or refuses it.
public enum VaultSchemaVersion {
    /// One named, append-only migration, in order: never rename or reorder
    /// one that has shipped, add a new one last. The order is the raw value
    /// and the name a switch, so that the front checks a vault without
    /// making an array of them.
    public enum Migration: Int, CaseIterable, Sendable {
        case accountsAndHistory, pinKinds, syncKeyHistory, followedFiles

        /// The name `grdb_migrations` records.
        public var name: String {
            switch self {
            case .accountsAndHistory: "v1-accounts-history"
            case .pinKinds: "v2-pin-kinds"
            case .syncKeyHistory: "v3-sync-key-history"
            case .followedFiles: "v4-followed-files"
            }
        }
    }

    /// The names of every migration, in order.
    public static var migrations: [String] { Migration.allCases.map(\.name) }

    /// Whether a vault that has had the migrations `names` (in order) is current: they are exactly `migrations`.
    public static func isCurrent(_ names: [String]) -> Bool {
        var index = 0
        while let migration = Migration(rawValue: index) {
            guard index < names.count, names[index] == migration.name else { return false }
            index += 1
        }
        return index == names.count
    }
}
