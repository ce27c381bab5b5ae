import AuthCatCore
import AuthCatEssentials

/// `list`, `code` and `history` with no account to show, the vault missing
/// or empty: one message on standard error and status 1 for all, with
/// `--json` too, instead of an empty output that looks like success. The
/// quick front hands these cases over, so it says the same.
struct NoAccountsError: UserFacingError {
    var folder: String

    init(_ options: VaultOptions) {
        folder = (try? options.location().folder.path) ?? "the vault"
    }

    /// The words of `VaultError.noVault`, which the other commands give.
    var description: String { VaultError.noVault(folder).description }
    var nextStep: NextStep? { .addAccount }
}
