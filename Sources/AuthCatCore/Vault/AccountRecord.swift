import AuthCatEssentials
import Foundation
import GRDB

/// One row of the `account` table as written: an `Account` plus its sealed
/// secret, and the sealed PIN of a Yandex or mOTP account. Rows are read
/// by `VaultReader`, the one reader of both programs.
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
        container["id"] = account.id.vaultString
        container["issuer"] = account.issuer
        container["name"] = account.name
        container["identityKey"] = account.identityKey
        container["kind"] = account.otp.kind.rawValue
        container["algorithm"] = account.otp.algorithm.rawValue
        container["digits"] = account.otp.digits
        container["period"] = account.otp.period
        container["counter"] = Int64(account.otp.counter)
        container["sealedSecret"] = sealedSecret
        container["sealedPIN"] = sealedPIN
        container["tags"] = try Account.tagsJSON(account.tags)
        container["note"] = account.note
        container["createdAt"] = account.createdAt.unixMilliseconds
        container["updatedAt"] = account.updatedAt.unixMilliseconds
        container["deletedAt"] = account.deletedAt?.unixMilliseconds
    }
}
