import Foundation
import GRDB

extension Vault {
    /// Accounts sorted by issuer then name (case-insensitive); deleted ones only when asked.
    public func accounts(includingDeleted: Bool = false) throws -> [Account] {
        try translatingErrors { db in
            let filter = includingDeleted ? "" : " WHERE deletedAt IS NULL"
            return try AccountRecord.fetchAll(db, sql: AccountRecord.selectSQL + filter).map(\.account)
        }
        .sortedForDisplay()
    }

    /// The account with this id, deleted or not.
    public func account(id: UUID) throws -> Account? {
        try translatingErrors { db in try AccountRecord.fetchOne(db, key: id.vaultString)?.account }
    }

    /// The one live account `query` names; throws `notFound` or `ambiguous` otherwise.
    public func account(matching query: String) throws -> Account {
        let exact = try accountsNamedExactly(query)
        let matches = exact.isEmpty ? AccountQuery(query).matches(in: try accounts()) : exact
        guard let first = matches.first else { throw VaultError.notFound(query) }
        guard matches.count == 1 else { throw VaultError.ambiguous(query, candidates: matches.map(\.label)) }
        return first
    }
}

extension Account {
    /// Sorted, stable output: issuer, then name, ignoring case; id breaks ties.
    public static func displayOrder(_ a: Account, _ b: Account) -> Bool {
        a.displayKey < b.displayKey
    }

    /// What `displayOrder` compares, computed once per account when sorting many.
    fileprivate var displayKey: DisplayKey {
        DisplayKey(issuer: issuer.lowercased(), name: name.lowercased(), id: id.vaultString)
    }
}

/// Issuer, then name, ignoring case; the id breaks ties.
private struct DisplayKey: Comparable {
    var issuer: String
    var name: String
    var id: String

    static func < (a: DisplayKey, b: DisplayKey) -> Bool {
        (a.issuer, a.name, a.id) < (b.issuer, b.name, b.id)
    }
}

extension Array where Element == Account {
    /// Sorted by `Account.displayOrder`, each sort key computed once rather
    /// than on every comparison, which matters for vaults of thousands.
    public func sortedForDisplay() -> [Account] {
        map { ($0.displayKey, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
