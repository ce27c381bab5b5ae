import AuthCatCore
import AuthCatEssentials
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
    /// The PIN of a Yandex or mOTP account, its UTF-8 bytes in base64; absent
    /// for the other kinds. It belongs to the secret: it has no clock of its
    /// own and changes with `secret`, under `secret`'s clock.
    var pin: String?

    enum CodingKeys: String, CodingKey {
        case id, counter, issuer, name, otp, secret, tags, note, deleted, pin
        case createdAt = "created_at"
    }

    /// Whether devices older than Yandex and mOTP could read this account:
    /// `ChangeSet` keeps the others in a member such devices skip.
    var isReadableByOlderDevices: Bool { !otp.value.kind.needsPIN }

    /// The clocks of the fields, keyed as in `clockedFields`.
    var clocks: [String: HybridTimestamp] {
        [
            "issuer": issuer.clock, "name": name.clock, "otp": otp.clock, "secret": secret.clock,
            "tags": tags.clock, "note": note.clock, "deleted": deleted.clock,
        ]
    }

    /// The furthest `created_at` from 1970 accepted, in milliseconds either
    /// way (JavaScript's date range): a date converts to and from
    /// milliseconds exactly within it, so no later conversion overflows.
    static let createdAtBound: Int64 = 8_640_000_000_000_000

    /// Checks what the vault would otherwise reject deep inside a transaction.
    func validate() throws {
        guard (-Self.createdAtBound...Self.createdAtBound).contains(createdAt) else {
            throw SyncObjectError.malformed("account creation time out of range")
        }
        guard let uuid = UUID(uuidString: id), uuid.vaultString == id else {
            throw SyncObjectError.malformed("account id")
        }
        guard !name.value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw SyncObjectError.malformed("empty account name")
        }
        guard Data(base64Encoded: secret.value) != nil else { throw SyncObjectError.malformed("account secret") }
        guard otp.value.kind.needsPIN == (pin != nil), pin.map({ Data(base64Encoded: $0) != nil }) ?? true else {
            throw SyncObjectError.malformed("account PIN")
        }
        do {
            try otp.value.parameters(counter: counter).validate()
        } catch {
            throw SyncObjectError.malformed("account code settings")
        }
    }
}

/// A field value with the time of the change that set it.
struct Stamped<Value: Codable & Equatable>: Codable, Equatable {
    var value: Value
    var clock: HybridTimestamp
}

/// An account's code settings without the HOTP counter, merged as one field
/// so that two devices' edits never combine into an invalid setting (a Steam
/// account with 8 digits, say). The counter merges on its own, as a maximum.
struct SyncedOTPSettings: Codable, Equatable {
    var kind: OTPKind
    var algorithm: OTPAlgorithm
    var digits: Int
    var period: Int

    init(_ otp: OTPParameters) {
        kind = otp.kind
        algorithm = otp.algorithm
        digits = otp.digits
        period = otp.period
    }

    func parameters(counter: UInt64) -> OTPParameters {
        OTPParameters(kind: kind, algorithm: algorithm, digits: digits, period: period, counter: counter)
    }
}
