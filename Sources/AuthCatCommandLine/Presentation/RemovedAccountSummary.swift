import AuthCatCore
import AuthCatEssentials
import Foundation

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
