import AuthCatEssentials
import Foundation
import GRDB

extension Vault {
    /// Accounts sorted by issuer then name (case-insensitive); deleted ones only when asked.
    public func accounts(includingDeleted: Bool = false) throws -> [Account] {
        try translatingErrors { db in try Self.accounts(includingDeleted: includingDeleted, in: db) }
    }

    /// The id, issuer and name of the live accounts, the deleted ones, or
    /// both, unsorted: what completing a label reads.
    public func accountNames(live: Bool, deleted: Bool) throws -> [AccountName] {
        try translatingErrors { db in try Self.reader(db).names(live: live, deleted: deleted) }
    }

    /// The account with this id, deleted or not.
    public func account(id: UUID) throws -> Account? {
        try translatingErrors { db in try Self.reader(db).account(id: id) }
    }

    /// The one live account `query` names; throws `notFound` or `ambiguous` otherwise.
    ///
    /// For showing an account only: a command that changes what it finds
    /// looks it up inside its write transaction (`VaultWriter.account(matching:)`).
    public func account(matching query: String) throws -> Account {
        try translatingErrors { db in try Self.account(matching: query, in: db) }
    }

    /// The one deleted account `query` names; throws `notFound` or `ambiguous` otherwise.
    public func deletedAccount(matching query: String) throws -> Account {
        try translatingErrors { db in try Self.deletedAccount(matching: query, in: db) }
    }

    /// The account `query` names among live accounts, else among deleted ones:
    /// what `authcat history` shows changes of.
    public func anyAccount(matching query: String) throws -> Account {
        do {
            return try account(matching: query)
        } catch VaultError.notFound {
            return try deletedAccount(matching: query)
        }
    }

    /// Throws `VaultStoreError.duplicate` when a live account already has this
    /// issuer and name (ignoring case), so that `add` can say so before the
    /// secret is typed. The insert checks again inside its transaction.
    public func checkNameIsFree(issuer: String, name: String) throws {
        try translatingErrors { db in
            let label = Account.label(issuer: issuer, name: name)
            try VaultWriter.checkNameIsFree(
                identityKeys: Account.identityKeys(forLabel: label), label: label, except: nil, in: db)
        }
    }
}

/// Finding and reading accounts. Every read goes through `VaultReader`, the
/// reader the quick front uses too, on the connection of the `Database`
/// given, so that a read made inside a write transaction (`VaultWriter`)
/// names the same account the write then changes.
extension Vault {
    /// The reader on `db`'s connection.
    static func reader(_ db: Database) throws -> VaultReader {
        // Nil only once the connection is closed, which no transaction outlives.
        guard let connection = db.sqliteConnection else { throw VaultError.storage("the vault database is closed") }
        return VaultReader(connection: connection)
    }

    /// The one live account `query` names; throws `notFound` or `ambiguous` otherwise.
    static func account(matching query: String, in db: Database) throws -> Account {
        try reader(db).account(matching: query)
    }

    /// The one deleted account `query` names, matched by `AccountQuery` among
    /// deleted accounts only; throws `notDeleted` when it names a live
    /// account instead, `notFound` or `ambiguous` otherwise.
    ///
    /// The same label can have been deleted more than once, so ambiguous
    /// candidates are named with their id and deletion time.
    static func deletedAccount(matching query: String, in db: Database) throws -> Account {
        let deleted = try accounts(includingDeleted: true, in: db).filter { $0.deletedAt != nil }
        let matches = AccountQuery(query).matches(in: deleted)
        guard let first = matches.first else {
            // Restoring a live account is a mistake worth naming as such.
            if let live = try? account(matching: query, in: db) { throw VaultStoreError.notDeleted(live.label) }
            throw VaultError.notFound(query)
        }
        guard matches.count == 1 else {
            throw VaultError.ambiguous(query, candidates: matches.map(describeDeleted))
        }
        return first
    }

    /// Accounts sorted by issuer then name (case-insensitive); deleted ones only when asked.
    static func accounts(includingDeleted: Bool, in db: Database) throws -> [Account] {
        try reader(db).accounts(includingDeleted: includingDeleted)
    }

    private static func describeDeleted(_ account: Account) -> String {
        let when = account.deletedAt.map { " deleted \(Timestamp.text($0))" } ?? ""
        return "\(account.label) (id \(account.id.vaultString),\(when))"
    }
}
