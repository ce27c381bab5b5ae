import AuthCatCore
import AuthCatEssentials
import Foundation

/// One account read from an import file, not yet compared with the vault.
public struct ImportEntry: Sendable {
    public var position: EntryPosition
    public var draft: AccountDraft
    /// The account's id in an authcat backup, kept on restore when the vault has no account with it.
    public var originalID: UUID?
    /// When the account was first added, if the file says.
    public var createdAt: Date?
    /// The entry's own id in the file, when its format gives one that stays
    /// the same across renames (Aegis's `uuid`, an authcat export's `id`):
    /// how a followed file's entry is recognised after it changed.
    public var sourceID: String?

    /// Normalises names the way every format needs: issuer and name trimmed,
    /// and an entry with only an issuer named by it (as `otpauth://totp/GitHub` is).
    /// - Throws: `EntryProblem.invalid` when the entry has no name at all or
    ///   parameters out of range.
    init(position: EntryPosition, draft: AccountDraft, originalID: UUID? = nil, createdAt: Date? = nil) throws {
        var draft = draft
        draft.issuer = draft.issuer.trimmingCharacters(in: .whitespacesAndNewlines)
        draft.name = draft.name.trimmingCharacters(in: .whitespacesAndNewlines)
        if draft.name.isEmpty {
            draft.name = draft.issuer
            draft.issuer = ""
        }
        guard !draft.name.isEmpty else { throw EntryProblem.invalid("it has neither an issuer nor an account name") }
        guard draft.secret.count > 0 else { throw EntryProblem.invalid("its secret is empty") }
        do {
            try draft.otp.validate()
            try draft.checkPIN()
        } catch let error as OTPParameterError {
            throw EntryProblem.invalid(error.description)
        } catch let error as OTPPINError {
            throw EntryProblem.invalid(error.description)
        }
        self.position = position
        self.draft = draft
        self.originalID = originalID
        self.createdAt = createdAt
        self.sourceID = originalID?.vaultString
    }

    /// `Issuer:name`, as the vault will show it.
    public var label: String {
        draft.issuer.isEmpty ? draft.name : "\(draft.issuer):\(draft.name)"
    }

    /// The key under which two accounts count as the same (see `Account.identityKey`).
    public var identityKey: String {
        Account.identityKey(issuer: draft.issuer, name: draft.name)
    }
}

extension AccountDraft {
    /// A draft whose secret is Base32 text from another app, read as those
    /// apps read it (`Base32.decodeSecret`): a length no byte string has is
    /// kept, its extra bits dropped, and `secretLeftover` set so that the
    /// import warns.
    init(
        issuer: String = "", name: String, otp: OTPParameters = OTPParameters(), tags: [String] = [], note: String = "",
        base32Secret text: String
    ) throws {
        let decoded = try Base32.decodeSecret(text)
        self.init(issuer: issuer, name: name, otp: otp, tags: tags, note: note, secret: decoded.secret)
        secretLeftover = decoded.leftover
    }
}

/// Where an entry sits in an import file, so a user can find it without the
/// message quoting its contents.
public struct EntryPosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// 1-based number of the entry among all entries of the file, in file order.
    public let number: Int
    /// "entry 3", "line 7" or "line 2, account 4".
    public let description: String

    public init(number: Int, description: String) {
        self.number = number
        self.description = description
    }

    /// The `number`th entry of a list.
    public static func entry(_ number: Int) -> EntryPosition {
        EntryPosition(number: number, description: "entry \(number)")
    }

    /// An entry that is a whole line of a text file.
    public static func line(_ line: Int, entry number: Int) -> EntryPosition {
        EntryPosition(number: number, description: "line \(line)")
    }

    public static func < (lhs: EntryPosition, rhs: EntryPosition) -> Bool {
        lhs.number < rhs.number
    }
}
