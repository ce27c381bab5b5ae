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
    public var issuer: String
    public var name: String
    public var code: String?
    public var type: OTPKind
    public var period: Int?
    public var validUntil: Date?

    public init(account: Account, code: OTPCode?) {
        id = account.id.vaultString
        issuer = account.issuer
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

    /// Every key is written, null included, so scripts can rely on the shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(issuer, forKey: .issuer)
        try container.encode(name, forKey: .name)
        try container.encode(code, forKey: .code)
        try container.encode(type, forKey: .type)
        try container.encode(period, forKey: .period)
        try container.encode(validUntil, forKey: .validUntil)
    }
}
