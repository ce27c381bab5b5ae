/// What an issuer or an account name given to `add`, `edit` or an import may
/// be. Sync and restores bring what the vault once held, and are not held to it.
///
/// - Text that was not UTF-8 reached the program as U+FFFD, the replacement
///   character (what Swift makes of such bytes in arguments, standard input
///   and files): a name holding it is refused, saying so, rather than kept
///   as something the user never typed and cannot type again to find it.
/// - At most `maximumLength` characters: longer than any real issuer or
///   account name (an email address has at most 254), short enough that a
///   name stays a name in a list, a menu or a completion.
public enum AccountNameRule {
    /// Characters (as Swift counts them: what a reader sees as one) in an issuer or a name.
    public static let maximumLength = 256

    /// Throws when `text`, the account's `field`, breaks the rule.
    /// - Throws: `VaultError.notUTF8` or `VaultError.nameTooLong`.
    public static func check(_ text: String, field: VaultError.NameField) throws {
        if text.unicodeScalars.contains("\u{FFFD}") { throw VaultError.notUTF8(field, shown: text) }
        // Bytes first: counting characters is slower, and nearly every name is short.
        if text.utf8.count > maximumLength, text.count > maximumLength {
            throw VaultError.nameTooLong(field, length: text.count)
        }
    }
}
