import Foundation
import GRDB

extension Vault {
    /// The live accounts that `query` names by id or by exact `issuer:name`
    /// label (the first two rules of `AccountQuery`), found through the
    /// primary key and the identity index instead of reading every account,
    /// so that `authcat code Issuer:name` costs the same in any vault size.
    /// Empty when neither rule matches.
    func accountsNamedExactly(_ query: String) throws -> [Account] {
        try translatingErrors { db in
            if let id = UUID(uuidString: query),
               let record = try AccountRecord.fetchOne(
                db, sql: AccountRecord.selectSQL + " WHERE id = ? AND deletedAt IS NULL", arguments: [id.vaultString]) {
                return [record.account]
            }
            // A label is "issuer:name", or just the name; the issuer may itself
            // contain a colon, so every colon is a possible split.
            var keys = [Account.identityKey(issuer: "", name: query)]
            for colon in query.indices where query[colon] == ":" {
                keys.append(Account.identityKey(issuer: String(query[..<colon]), name: String(query[query.index(after: colon)...])))
            }
            let placeholders = Array(repeating: "?", count: keys.count).joined(separator: ", ")
            return try AccountRecord.fetchAll(
                db, sql: AccountRecord.selectSQL + " WHERE deletedAt IS NULL AND identityKey IN (\(placeholders))",
                arguments: StatementArguments(keys)).map(\.account).sorted(by: Account.displayOrder)
        }
    }
}
