import AuthCatCore
import AuthCatEssentials
import Foundation

/// What `authcat list --json` shows of an account: everything but its secret.
///
/// `period` is null for HOTP and `counter` is null for TOTP and Steam, since
/// those fields mean nothing for them.
public struct AccountSummary: Encodable, Equatable, Sendable {
    public var id: String
    /// Null when the account has no issuer (docs/JSON.md: absent is null, never "").
    @NullWhenAbsent public var issuer: String?
    public var name: String
    public var type: OTPKind
    public var algorithm: OTPAlgorithm
    public var digits: Int
    @NullWhenAbsent public var period: Int?
    @NullWhenAbsent public var counter: UInt64?
    public var tags: [String]

    public init(_ account: Account) {
        id = account.id.vaultString
        issuer = account.issuer.isEmpty ? nil : account.issuer
        name = account.name
        type = account.otp.kind
        algorithm = account.otp.algorithm
        digits = account.otp.digits
        period = account.otp.kind == .hotp ? nil : account.otp.period
        counter = account.otp.kind == .hotp ? account.otp.counter : nil
        tags = account.tags
    }

    enum CodingKeys: String, CodingKey {
        case id, issuer, name, type, algorithm, digits, period, counter, tags
    }
}

/// What `authcat list --removed --json` shows of a removed account: the
/// `list --json` object, with when it was removed.
public struct RemovedAccountSummary: Encodable, Equatable, Sendable {
    public var summary: AccountSummary
    @NullWhenAbsent public var removedAt: Date?

    public init(_ account: Account) {
        summary = AccountSummary(account)
        removedAt = account.deletedAt
    }

    enum CodingKeys: String, CodingKey {
        case removedAt = "removed_at"
    }

    /// The summary's keys and `removed_at`, in one object.
    public func encode(to encoder: Encoder) throws {
        try summary.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(_removedAt, forKey: .removedAt)
    }
}
