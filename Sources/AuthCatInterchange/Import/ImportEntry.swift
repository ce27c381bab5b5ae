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
