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
        container[AccountColumn.id.rawValue] = account.id.vaultString
        container[AccountColumn.issuer.rawValue] = account.issuer
        container[AccountColumn.name.rawValue] = account.name
        container[AccountColumn.identityKey.rawValue] = account.identityKey
        container[AccountColumn.kind.rawValue] = account.otp.kind.rawValue
        container[AccountColumn.algorithm.rawValue] = account.otp.algorithm.rawValue
        container[AccountColumn.digits.rawValue] = account.otp.digits
        container[AccountColumn.period.rawValue] = account.otp.period
        container[AccountColumn.counter.rawValue] = Int64(account.otp.counter)
        container[AccountColumn.sealedSecret.rawValue] = sealedSecret
        container[AccountColumn.sealedPIN.rawValue] = sealedPIN
        container[AccountColumn.tags.rawValue] = try Account.tagsJSON(account.tags)
        container[AccountColumn.note.rawValue] = account.note
        container[AccountColumn.createdAt.rawValue] = account.createdAt.unixMilliseconds
        container[AccountColumn.updatedAt.rawValue] = account.updatedAt.unixMilliseconds
        container[AccountColumn.deletedAt.rawValue] = account.deletedAt?.unixMilliseconds
    }
}
