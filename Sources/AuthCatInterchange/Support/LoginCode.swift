import AuthCatCore
import AuthCatEssentials
import Foundation

/// The one-time code a password manager keeps beside a login (1Password,
/// Proton Pass): an `otpauth://` URI, or a bare Base32 secret with the app's
/// defaults (TOTP, SHA-1, 6 digits, 30 s).
enum LoginCode {
    /// The account `code` describes. A URI names it, with the login's
    /// `title` as issuer when it has none; a bare secret is named by `title`
    /// (issuer) and `userName`.
    static func draft(
        _ code: String, title: String, userName: String, position: EntryPosition
    ) throws
        -> AccountDraft
    {
        guard code.lowercased().hasPrefix("otpauth://") else {
            return try AccountDraft(issuer: title, name: userName, base32Secret: code)
        }
        var draft = try OTPAuthFormat.entry(Substring(code), position: position).draft
        if draft.issuer.isEmpty && draft.name.caseInsensitiveCompare(title) != .orderedSame {
            draft.issuer = title
        }
        return draft
    }

    /// `title` as the label of an entry's messages; nil when it would quote
    /// the entry's `code`, which a message must never show.
    static func label(_ title: String, besides code: String) -> String? {
        let trimmed = code.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty, trimmed.isEmpty || !title.contains(trimmed) else { return nil }
        let lowercased = title.lowercased()
        return ["otpauth:", "secret="].contains { lowercased.contains($0) } ? nil : title
    }
}
