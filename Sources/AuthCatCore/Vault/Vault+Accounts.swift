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
