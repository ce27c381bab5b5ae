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
