import Foundation
import GRDB

/// One row of the `account` table: an `Account` plus its sealed secret, and
/// the sealed PIN of a Yandex or mOTP account.
struct AccountRecord: FetchableRecord, PersistableRecord, Equatable {
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

    /// The columns every fetch selects, in the order `init(row:)` reads them.
    static let columnNames = ["id", "issuer", "name", "kind", "algorithm", "digits", "period", "counter",
                              "tags", "note", "createdAt", "updatedAt", "deletedAt", "sealedSecret", "sealedPIN"]
    static var databaseSelection: [any SQLSelectable] { columnNames.map { Column($0) } }
    /// `SELECT` of `columnNames`, for fetches written in SQL.
    static let selectSQL = "SELECT \(columnNames.joined(separator: ", ")) FROM account"

    /// Reads the columns by position: by name, each value would cost a
    /// lowercased dictionary lookup, 140,000 of them to list 10,000 accounts.
    init(row: Row) throws {
        account = try Self.account(row)
        sealedSecret = row[13]
        sealedPIN = row[14]
    }

    /// The account of a row whose first columns are `columnNames`' first 13.
    static func account(_ row: Row) throws -> Account {
        let idText: String = row[0]
        guard let id = UUID(vaultString: idText) ?? UUID(uuidString: idText),
              let kind = OTPKind(rawValue: row[3]),
              let algorithm = OTPAlgorithm(rawValue: row[4])
        else { throw VaultError.storage("an account row has an invalid id, type or algorithm") }
        let counter: Int64 = row[7]
        let otp = OTPParameters(kind: kind, algorithm: algorithm, digits: row[5], period: row[6], counter: UInt64(max(counter, 0)))
        return Account(
            id: id, issuer: row[1], name: row[2], otp: otp, tags: Account.tags(fromJSON: row[8]), note: row[9],
            createdAt: Date(unixMilliseconds: row[10]), updatedAt: Date(unixMilliseconds: row[11]),
            deletedAt: (row[12] as Int64?).map(Date.init(unixMilliseconds:)))
    }

    /// `SELECT` of the columns an `Account` has, without the sealed secret
    /// and PIN: what listing and looking up accounts read.
    static let accountSelectSQL = "SELECT \(columnNames.prefix(13).joined(separator: ", ")) FROM account"


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
