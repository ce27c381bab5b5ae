import AuthCatCore
import AuthCatEssentials

/// `list` and `code` with no account to show, the vault missing or empty:
/// one message on standard error and one status for both, instead of an
/// empty output that looks like success.
struct NoAccountsError: UserFacingError {
    var folder: String

    init(_ options: VaultOptions) {
        folder = (try? options.location().folder.path) ?? "the vault"
    }

    var description: String {
        "no accounts in \(folder) yet; add one with 'authcat add' or 'authcat import'"
    }
}
