import AuthCatCore
import AuthCatEssentials
import Foundation

/// What `authcat show --json` prints: the `list --json` object of the
/// account, with its note and when it was created and last changed.
public struct AccountDetails: Encodable, Equatable, Sendable {
    public var summary: AccountSummary
    /// Null when the account has no note.
    @NullWhenAbsent public var note: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(_ account: Account) {
        summary = AccountSummary(account)
        note = account.note.isEmpty ? nil : account.note
        createdAt = account.createdAt
        updatedAt = account.updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case note
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// The summary's keys and these, in one object.
    public func encode(to encoder: Encoder) throws {
        try summary.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(_note, forKey: .note)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}
