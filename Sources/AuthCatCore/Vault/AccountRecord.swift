import Foundation
import GRDB

/// One row of the `account` table: an `Account` plus its sealed secret.
struct AccountRecord: FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "account"

    var account: Account
    var sealedSecret: Data

    init(account: Account, sealedSecret: Data) {
        self.account = account
        self.sealedSecret = sealedSecret
    }

    init(row: Row) throws {
        guard let id = UUID(vaultString: row["id"]) ?? UUID(uuidString: row["id"]),
              let kind = OTPKind(rawValue: row["kind"]),
              let algorithm = OTPAlgorithm(rawValue: row["algorithm"])
        else { throw VaultError.storage("an account row has an invalid id, type or algorithm") }
        let counter: Int64 = row["counter"]
        let otp = OTPParameters(kind: kind, algorithm: algorithm, digits: row["digits"], period: row["period"], counter: UInt64(max(counter, 0)))
        let tags = Self.decodeTags(row["tags"])
        account = Account(
            id: id, issuer: row["issuer"], name: row["name"], otp: otp, tags: tags, note: row["note"],
            createdAt: Date(unixMilliseconds: row["createdAt"]), updatedAt: Date(unixMilliseconds: row["updatedAt"]),
            deletedAt: (row["deletedAt"] as Int64?).map(Date.init(unixMilliseconds:)))
        sealedSecret = row["sealedSecret"]
    }

    /// Most accounts have no tags; skipping the JSON decoder for them keeps
    /// listing 10,000 accounts fast.
    private static func decodeTags(_ json: String) -> [String] {
        guard json != "[]" else { return [] }
        return (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
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
        container["tags"] = String(decoding: try JSONEncoder().encode(account.tags), as: UTF8.self)
        container["note"] = account.note
        container["createdAt"] = account.createdAt.unixMilliseconds
        container["updatedAt"] = account.updatedAt.unixMilliseconds
        container["deletedAt"] = account.deletedAt?.unixMilliseconds
    }
}
