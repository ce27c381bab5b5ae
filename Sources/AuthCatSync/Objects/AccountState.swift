import AuthCatCore
import Foundation

/// One account as a batch or snapshot carries it: every field with the clock
/// of its last change. Batches always carry whole accounts, so any one object
/// is enough to create an account a device has never seen.
struct AccountState: Codable, Equatable {
    /// The field names that have clocks, as in `SyncClockRecord.clocks`.
    static let clockedFields = ["issuer", "name", "otp", "secret", "tags", "note", "deleted"]

    var id: String
    var createdAt: Int64
    /// The next HOTP counter value; merges as the maximum, so it never goes back.
    var counter: UInt64
    var issuer: Stamped<String>
    var name: Stamped<String>
    var otp: Stamped<SyncedOTPSettings>
    /// The secret, base64; only ever inside a sealed object.
    var secret: Stamped<String>
    var tags: Stamped<[String]>
    var note: Stamped<String>
    var deleted: Stamped<Bool>

    enum CodingKeys: String, CodingKey {
        case id, counter, issuer, name, otp, secret, tags, note, deleted
        case createdAt = "created_at"
    }

    /// The clocks of the fields, keyed as in `clockedFields`.
    var clocks: [String: HybridTimestamp] {
        ["issuer": issuer.clock, "name": name.clock, "otp": otp.clock, "secret": secret.clock,
         "tags": tags.clock, "note": note.clock, "deleted": deleted.clock]
    }

    /// Checks what the vault would otherwise reject deep inside a transaction.
    func validate() throws {
        guard let uuid = UUID(uuidString: id), uuid.vaultString == id else { throw SyncObjectError.malformed("account id") }
        guard !name.value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw SyncObjectError.malformed("empty account name") }
        guard Data(base64Encoded: secret.value) != nil else { throw SyncObjectError.malformed("account secret") }
        do {
            try otp.value.parameters(counter: counter).validate()
        } catch {
            throw SyncObjectError.malformed("account code settings")
        }
    }
}
