import AuthCatEssentials
import FoundationEssentials
import GRDBSQLite
import Glibc

/// A read-only look into the vault, with SQLite's C interface, for the
/// quick front: the current schema, the live accounts, the one a query
/// names, a sealed secret. Anything unexpected is nil, never an error: the
/// front then hands the command line to `authcat-cli`, which opens the vault
/// properly and says what is wrong.
final class QuickVault {
    private let connection: OpaquePointer

    /// The vault at `location`, if `Vault.open` would open it: a key file
    /// beside a database with the current schema and its `vault` row.
    init?(_ location: VaultLocation) {
        guard access(location.keyFileURL.path, F_OK) == 0,
              DatabaseFileSize.isWhole(atPath: location.databaseURL.path) else { return nil }
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW
        guard sqlite3_open_v2(location.databaseURL.path, &connection, flags, nil) == SQLITE_OK, let connection else {
            sqlite3_close(connection)
            return nil
        }
        self.connection = connection
        sqlite3_busy_timeout(connection, 10_000)
        guard hasCurrentSchema, rows("SELECT 1 FROM vault LIMIT 1", [], { _ in 1 })?.count == 1 else { return nil }
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

    /// What `query` names among the live accounts, by the rules of
    /// `Vault.account(matching:)`: its id, then its exact label, then
    /// `AccountQuery` over every live account's id, issuer and name (the
    /// whole account is read only for the one found). Nil when the vault
    /// does not read.
    func lookUp(_ query: String) -> Match? {
        if let id = UUID(uuidString: query) {
            guard let byID = accounts(where: "id = ?", [id.vaultString]) else { return nil }
            if byID.count == 1 { return .one(byID[0]) }
        }
        let keys = Account.identityKeys(forLabel: query)
        guard let exact = accounts(where: "identityKey IN (\(placeholders(keys.count)))", keys) else { return nil }
        if exact.count == 1 { return .one(exact[0]) }
        if exact.count > 1 { return .several(exact.sortedForDisplay().map(\.label)) }
        guard let names = liveNames() else { return nil }
        let matches = AccountQuery(query).matches(in: names)
        switch matches.count {
        case 0: return Match.none
        case 1: return accounts(where: "id = ?", [matches[0].id.vaultString])?.first.map(Match.one)
        default: return .several(matches.sortedForDisplay().map(\.label))
        }
    }

    /// What a query names: one account, several (their labels, sorted for
    /// display), or none.
    enum Match {
        case one(Account)
        case several([String])
        case none
    }

    /// Every live account, unsorted.
    func liveAccounts() -> [Account]? {
        accounts(where: "1", [])
    }

    /// The sealed secret of account `id`.
    func sealedSecret(of id: UUID) -> Data? {
        rows("SELECT sealedSecret FROM account WHERE id = ?", [id.vaultString]) { statement -> Data? in
            guard let bytes = sqlite3_column_blob(statement, 0) else { return nil }
            return Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, 0)))
        }?.first
    }

    /// The id, issuer and name of every live account, unsorted: all that
    /// `AccountQuery` reads, at a fraction of the cost of whole accounts.
    private func liveNames() -> [AccountName]? {
        rows("SELECT id, issuer, name FROM account WHERE deletedAt IS NULL", []) { statement in
            guard let id = uuid(statement, 0), let issuer = text(statement, 1), let name = text(statement, 2) else { return nil }
            return AccountName(id: id, issuer: issuer, name: name)
        }
    }

    private var hasCurrentSchema: Bool {
        rows("SELECT identifier FROM grdb_migrations ORDER BY rowid", []) { text($0, 0) } == VaultSchemaVersion.migrations
    }

    private func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// Live accounts matching an SQL condition. Notes are not read: the front prints none.
    private func accounts(where condition: String, _ arguments: [String]) -> [Account]? {
        let sql = "SELECT id, issuer, name, kind, algorithm, digits, period, counter, tags, createdAt, updatedAt "
            + "FROM account WHERE deletedAt IS NULL AND (\(condition))"
        return rows(sql, arguments) { statement in
            guard let id = uuid(statement, 0), let issuer = text(statement, 1), let name = text(statement, 2),
                  let kind = text(statement, 3).flatMap(OTPKind.init(rawValue:)),
                  let algorithm = text(statement, 4).flatMap(OTPAlgorithm.init(rawValue:))
            else { return nil }
            let otp = OTPParameters(kind: kind, algorithm: algorithm, digits: Int(sqlite3_column_int64(statement, 5)),
                                    period: Int(sqlite3_column_int64(statement, 6)),
                                    counter: UInt64(max(sqlite3_column_int64(statement, 7), 0)))
            return Account(id: id, issuer: issuer, name: name, otp: otp,
                           tags: Account.tags(fromJSON: text(statement, 8) ?? "[]"),
                           createdAt: Date(unixMilliseconds: sqlite3_column_int64(statement, 9)),
                           updatedAt: Date(unixMilliseconds: sqlite3_column_int64(statement, 10)))
        }
    }

    /// Every row of `sql` read by `read`; nil when the statement fails or any row does not read.
    private func rows<T>(_ sql: String, _ arguments: [String], _ read: (OpaquePointer) -> T?) -> [T]? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return nil }
        defer { sqlite3_finalize(statement) }
        for (index, argument) in arguments.enumerated() {
            guard sqlite3_bind_text(statement, Int32(index + 1), argument, -1, Self.transient) == SQLITE_OK else { return nil }
        }
        var values: [T] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW:
                guard let value = read(statement) else { return nil }
                values.append(value)
            case SQLITE_DONE:
                return values
            default:
                return nil
            }
        }
    }

    private func uuid(_ statement: OpaquePointer, _ column: Int32) -> UUID? {
        text(statement, column).flatMap { UUID(vaultString: $0) ?? UUID(uuidString: $0) }
    }

    private func text(_ statement: OpaquePointer, _ column: Int32) -> String? {
        sqlite3_column_text(statement, column).map { String(cString: $0) }
    }

    /// SQLite copies bound text at once (SQLITE_TRANSIENT, which Swift cannot import as a constant).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// What the lookup rule reads of an account.
private struct AccountName: AccountNaming {
    var id: UUID
    var issuer: String
    var name: String
}
