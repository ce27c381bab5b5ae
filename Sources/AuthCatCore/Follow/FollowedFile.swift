import AuthCatEssentials
import Foundation

/// A file another app keeps writing (an Aegis or 2FAS backup that Syncthing
/// or Nextcloud brings over) that the vault follows: the accounts it brought
/// change as it changes (`authcat follow`). Kept in the vault, never synced.
public struct FollowedFile: Equatable, Sendable {
    public var id: UUID
    /// What the user calls it: the history author `follow:NAME`.
    public var name: String
    /// The absolute path it is read from.
    public var path: String
    /// The import format's name (`ImportFormat.rawValue`).
    public var format: String
    /// Whether its password is kept, sealed, in the vault.
    public var hasPassword: Bool
    /// SHA-256 of the content last applied: an unchanged file is not parsed again.
    public var digest: Data?
    public var addedAt: Date
    /// When `follow now` last looked at it.
    public var checkedAt: Date?
    /// When a change of its content was last applied.
    public var changedAt: Date?
    /// Why the last look failed (the file is gone, will not parse, its password changed); nil after a success.
    public var problem: String?

    public init(
        id: UUID, name: String, path: String, format: String, hasPassword: Bool, digest: Data? = nil, addedAt: Date,
        checkedAt: Date? = nil, changedAt: Date? = nil, problem: String? = nil
    ) {
        self.id = id
        self.name = name
        self.path = path
        self.format = format
        self.hasPassword = hasPassword
        self.digest = digest
        self.addedAt = addedAt
        self.checkedAt = checkedAt
        self.changedAt = changedAt
        self.problem = problem
    }

    /// The longest name, in bytes of UTF-8.
    public static let maximumNameLength = 64

    /// Checks that `name` can name a followed file: 1 to 64 bytes, printable, no `:` or `/`.
    public static func checkName(_ name: String) throws {
        let printable = name.unicodeScalars.allSatisfy {
            !$0.properties.isDefaultIgnorableCodePoint && $0.value >= 0x20
        }
        guard !name.isEmpty, name.utf8.count <= maximumNameLength, printable,
            !name.contains("/"), !name.contains(":"), name.trimmingCharacters(in: .whitespaces) == name
        else { throw FollowError.invalidName(name) }
    }

    /// A name for the file at `path` when none is given: its file name without the extension.
    public static func defaultName(for path: String) -> String {
        let file = (path as NSString).lastPathComponent
        let stem = (file as NSString).deletingPathExtension
        let cleaned = String(
            (stem.isEmpty ? file : stem).unicodeScalars.filter { $0.value >= 0x20 && $0 != ":" && $0 != "/" })
        let trimmed = cleaned.trimmingCharacters(in: .whitespaces)
        let name = String(trimmed.utf8.prefix(maximumNameLength)) ?? ""
        return name.isEmpty ? "followed" : name
    }
}

/// An account a followed file brought, and its entry as last applied.
public struct FollowedEntry: Sendable {
    public var accountID: UUID
    /// The entry's id in the file, when the format gives one (Aegis's `uuid`).
    public var sourceID: String?
    public var snapshot: FollowSnapshot

    public init(accountID: UUID, sourceID: String?, snapshot: FollowSnapshot) {
        self.accountID = accountID
        self.sourceID = sourceID
        self.snapshot = snapshot
    }
}

/// A followed entry's fields as last applied: what tells a change made in
/// the file from one made here. It holds the secret, so the vault keeps it
/// sealed under the vault key.
public struct FollowSnapshot: Codable, Equatable, Sendable {
    public var issuer: String
    public var name: String
    public var otp: OTPParameters
    public var tags: [String]
    public var note: String
    public var secret: Data
    public var pin: Data?

    public init(_ draft: AccountDraft) {
        issuer = draft.issuer
        name = draft.name
        otp = draft.otp
        tags = draft.tags
        note = draft.note
        secret = draft.secret.unprotectedData()
        pin = draft.pin?.unprotectedData()
    }
}
