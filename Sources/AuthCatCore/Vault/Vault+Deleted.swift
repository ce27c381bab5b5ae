import Foundation

extension Vault {
    /// The one deleted account `query` names, matched by `AccountQuery` among
    /// deleted accounts only; throws `notFound` or `ambiguous` otherwise.
    ///
    /// The same label can have been deleted more than once, so ambiguous
    /// candidates are named with their id and deletion time.
    public func deletedAccount(matching query: String) throws -> Account {
        let deleted = try accounts(includingDeleted: true).filter { $0.deletedAt != nil }
        let matches = AccountQuery(query).matches(in: deleted)
        guard let first = matches.first else { throw VaultError.notFound(query) }
        guard matches.count == 1 else {
            throw VaultError.ambiguous(query, candidates: matches.map(Self.describeDeleted))
        }
        return first
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

    private static func describeDeleted(_ account: Account) -> String {
        let when = account.deletedAt.map { " deleted \(Timestamp.text($0))" } ?? ""
        return "\(account.label) (id \(account.id.vaultString),\(when))"
    }
}
