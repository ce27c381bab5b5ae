import AuthCatCore
import AuthCatEssentials
import Foundation

/// What `authcat list --json` shows of an account: everything but its secret.
///
/// `period` is null for HOTP and `counter` is null for TOTP and Steam, since
/// those fields mean nothing for them.
public struct AccountSummary: Encodable, Equatable, Sendable {
    public var id: String
    public var issuer: String
    public var name: String
    public var type: OTPKind
    public var algorithm: OTPAlgorithm
    public var digits: Int
    public var period: Int?
    public var counter: UInt64?
    public var tags: [String]

    public init(_ account: Account) {
        id = account.id.vaultString
        issuer = account.issuer
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

    /// Every key is written, null included, so scripts can rely on the shape.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(issuer, forKey: .issuer)
        try container.encode(name, forKey: .name)
        try container.encode(type, forKey: .type)
        try container.encode(algorithm, forKey: .algorithm)
        try container.encode(digits, forKey: .digits)
        try container.encode(period, forKey: .period)
        try container.encode(counter, forKey: .counter)
        try container.encode(tags, forKey: .tags)
    }
}
