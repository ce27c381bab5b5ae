import AuthCatCore
import AuthCatEssentials
import Foundation

/// What `authcat code --json` shows of one code.
///
/// `code` is null for an HOTP account listed without being asked for by name
/// (listing must not use up counter values); `period` and `valid_until`
/// (seconds since 1970) are null for HOTP.
public struct CodeSummary: Encodable, Equatable, Sendable {
    public var id: String
    /// Null when the account has no issuer.
    @NullWhenAbsent public var issuer: String?
    public var name: String
    @NullWhenAbsent public var code: String?
    public var type: OTPKind
    @NullWhenAbsent public var period: Int?
    @NullWhenAbsent public var validUntil: Date?

    public init(account: Account, code: OTPCode?) {
        id = account.id.vaultString
        issuer = account.issuer.isEmpty ? nil : account.issuer
        name = account.name
        self.code = code?.value
        type = account.otp.kind
        period = account.otp.kind == .hotp ? nil : account.otp.period
        validUntil = code?.validUntil
    }

    enum CodingKeys: String, CodingKey {
        case id, issuer, name, code, type, period
        case validUntil = "valid_until"
    }
}
