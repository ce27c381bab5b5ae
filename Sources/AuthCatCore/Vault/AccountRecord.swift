import AuthCatEssentials
import Foundation
import GRDB

/// One row of the `account` table as written: an `Account` plus its sealed
/// secret, and the sealed PIN of a Yandex or mOTP account, written by the
/// column names of `AccountColumn`. Rows are read by `VaultReader`, the one
/// reader of both programs, by the same names.
struct AccountRecord: PersistableRecord, Equatable {
    static let databaseTableName = "account"

    var account: Account
    var sealedSecret: Data
    /// Set exactly for the kinds that need a PIN (the schema checks it too).
    var sealedPIN: Data?

    init(account: Account, sealedSecret: Data, sealedPIN: Data? = nil) {
        self.account = account
        self.sealedSecret = sealedSecret
        self.sealedPIN = sealedPIN
    }

    func encode(to container: inout PersistenceContainer) throws {
        container[AccountColumn.id.name] = account.id.vaultString
        container[AccountColumn.issuer.name] = account.issuer
        container[AccountColumn.name.name] = account.name
        container[AccountColumn.identityKey.name] = account.identityKey
        container[AccountColumn.kind.name] = account.otp.kind.rawValue
        container[AccountColumn.algorithm.name] = account.otp.algorithm.rawValue
        container[AccountColumn.digits.name] = account.otp.digits
        container[AccountColumn.period.name] = account.otp.period
        container[AccountColumn.counter.name] = Int64(account.otp.counter)
        container[AccountColumn.sealedSecret.name] = sealedSecret
        container[AccountColumn.sealedPIN.name] = sealedPIN
        container[AccountColumn.tags.name] = try Account.tagsJSON(account.tags)
        container[AccountColumn.note.name] = account.note
        container[AccountColumn.createdAt.name] = account.createdAt.unixMilliseconds
        container[AccountColumn.updatedAt.name] = account.updatedAt.unixMilliseconds
        container[AccountColumn.deletedAt.name] = account.deletedAt?.unixMilliseconds
    }
}
