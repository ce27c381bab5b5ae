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
            let keys = Account.identityKeys(forLabel: query)
            let placeholders = Array(repeating: "?", count: keys.count).joined(separator: ", ")
            return try AccountRecord.fetchAll(
                db, sql: AccountRecord.selectSQL + " WHERE deletedAt IS NULL AND identityKey IN (\(placeholders))",
                arguments: StatementArguments(keys)).map(\.account).sorted(by: Account.displayOrder)
        }
    }
}
