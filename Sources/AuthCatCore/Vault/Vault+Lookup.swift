import Foundation
import GRDB

/// Finding accounts by what a user typed. Each rule reads through a
/// `Database`, so that a read made inside a write transaction (`VaultWriter`)
/// names the same account the write then changes.
extension Vault {
    /// The one live account `query` names; throws `notFound` or `ambiguous` otherwise.
    static func account(matching query: String, in db: Database) throws -> Account {
        let exact = try accountsNamedExactly(query, in: db)
        let matches = exact.isEmpty ? AccountQuery(query).matches(in: try accounts(includingDeleted: false, in: db)) : exact
        guard let first = matches.first else { throw VaultError.notFound(query) }
        guard matches.count == 1 else { throw VaultError.ambiguous(query, candidates: matches.map(\.label)) }
        return first
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
            if let live = try? account(matching: query, in: db) { throw VaultError.notDeleted(live.label) }
            throw VaultError.notFound(query)
        }
        guard matches.count == 1 else {
            throw VaultError.ambiguous(query, candidates: matches.map(describeDeleted))
        }
        return first
    }

    /// Accounts sorted by issuer then name (case-insensitive); deleted ones only when asked.
    static func accounts(includingDeleted: Bool, in db: Database) throws -> [Account] {
        let filter = includingDeleted ? "" : " WHERE deletedAt IS NULL"
        // Without the sealed secrets, which no listing needs: 10,000 fewer blobs to copy.
        let rows = try Row.fetchCursor(db, sql: AccountRecord.accountSelectSQL + filter)
        var accounts: [Account] = []
        while let row = try rows.next() { accounts.append(try AccountRecord.account(row)) }
        return accounts.sortedForDisplay()
    }

    /// The live accounts that `query` names by id or by exact `issuer:name`
    /// label (the first two rules of `AccountQuery`), found through the
    /// primary key and the identity index instead of reading every account,
    /// so that `authcat code Issuer:name` costs the same in any vault size.
    /// Empty when neither rule matches.
    private static func accountsNamedExactly(_ query: String, in db: Database) throws -> [Account] {
        if let id = UUID(uuidString: query),
           let record = try AccountRecord.fetchOne(
            db, sql: AccountRecord.selectSQL + " WHERE id = ? AND deletedAt IS NULL", arguments: [id.vaultString]) {
            return [record.account]
        }
        let keys = Account.identityKeys(forLabel: query)
        let placeholders = Array(repeating: "?", count: keys.count).joined(separator: ", ")
        return try AccountRecord.fetchAll(
            db, sql: AccountRecord.selectSQL + " WHERE deletedAt IS NULL AND identityKey IN (\(placeholders))",
            arguments: StatementArguments(keys)).map(\.account).sorted(by: Account.displayOrder)
    }

    private static func describeDeleted(_ account: Account) -> String {
        let when = account.deletedAt.map { " deleted \(Timestamp.text($0))" } ?? ""
        return "\(account.label) (id \(account.id.vaultString),\(when))"
    }
}

extension VaultWriter {
    /// The one live account `query` names, as stored in this transaction.
    public func account(matching query: String) throws -> Account {
        try Vault.account(matching: query, in: db)
    }

    /// The one deleted account `query` names, as stored in this transaction.
    public func deletedAccount(matching query: String) throws -> Account {
        try Vault.deletedAccount(matching: query, in: db)
    }
}
