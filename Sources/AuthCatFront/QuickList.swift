import AuthCatEssentials

/// `authcat list`: the table of live accounts, as `authcat-cli list` prints it.
enum QuickList {
    /// The table; nil to hand over, as for an empty vault (authcat-cli says it has no accounts).
    static func table(_ vault: QuickVault) -> String? {
        guard let accounts = try? vault.reader.accounts(), !accounts.isEmpty else { return nil }
        return TextTable.lines(accounts.map(AccountRow.cells)).joined(separator: "\n")
    }

    /// `list --json`: the same text as `authcat-cli list --json`; nil to hand
    /// over when empty, as for the table.
    static func json(_ vault: QuickVault) -> String? {
        guard let accounts = try? vault.reader.accounts(), !accounts.isEmpty else { return nil }
        return AccountListJSON.text(accounts)
    }
}
