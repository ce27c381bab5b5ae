import AuthCatEssentials

/// `authcat list`: the table of live accounts, as `authcat-cli list` prints it.
enum QuickList {
    /// The table; empty for an empty vault; nil to hand over.
    static func table(_ vault: QuickVault) -> String? {
        guard let accounts = vault.liveAccounts() else { return nil }
        return TextTable.lines(accounts.sortedForDisplay().map(AccountRow.cells)).joined(separator: "\n")
    }
}
