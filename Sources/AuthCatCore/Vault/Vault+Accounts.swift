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

    /// Throws `VaultError.duplicate` when a live account already has this
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
