import AuthCatCore
import AuthCatEssentials
import Foundation

/// One account in an `AuthCatArchive`, secret included.
public struct ArchivedAccount: Codable, Equatable, Sendable {
    public var id: String
    public var issuer: String
    public var name: String
    /// totp, hotp, steam, yandex or motp.
    public var type: String
    /// sha1, sha256, sha512, or md5 (mOTP).
    public var algorithm: String
    public var digits: Int
    public var period: Int
    public var counter: UInt64
    /// Uppercase Base32 without padding.
    public var secret: String
    /// The PIN of a Yandex or mOTP account, as text; absent for the other kinds.
    public var pin: String?
    public var tags: [String]
    public var note: String
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(_ account: Account, secret: SecretBytes, pin: SecretBytes? = nil) {
        id = account.id.vaultString
        issuer = account.issuer
        name = account.name
        type = account.otp.kind.rawValue
        algorithm = account.otp.algorithm.rawValue
        digits = account.otp.digits
        period = account.otp.period
        counter = account.otp.counter
        self.secret = Base32.encode(secret)
        // `OTPPIN.check` let only UTF-8 text into the vault.
        self.pin = pin.map { String(decoding: $0.unprotectedData(), as: UTF8.self) }
        tags = account.tags
        note = account.note
        createdAt = account.createdAt.unixMilliseconds
        updatedAt = account.updatedAt.unixMilliseconds
    }

    /// The account as an import entry.
    /// - Throws: `EntryProblem` for an unknown type or algorithm, a bad secret or parameters out of range.
    func entry(position: EntryPosition) throws -> ImportEntry {
        guard let kind = OTPKind(rawValue: type) else {
            throw EntryProblem.invalid("unknown type '\(EntryProblem.shown(type))'")
        }
        guard let algorithm = OTPAlgorithm(rawValue: algorithm) else {
            throw EntryProblem.invalid("unknown algorithm '\(EntryProblem.shown(self.algorithm))'")
        }
        let otp = OTPParameters(kind: kind, algorithm: algorithm, digits: digits, period: period, counter: counter)
        let draft = AccountDraft(
            issuer: issuer, name: name, otp: otp, tags: tags, note: note, secret: try Base32.decode(secret),
            pin: pin.map { SecretBytes(utf8: $0) })
        return try ImportEntry(
            position: position, draft: draft, originalID: UUID(uuidString: id),
            createdAt: Date(unixMilliseconds: createdAt))
    }
}
