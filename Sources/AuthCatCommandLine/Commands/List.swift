import ArgumentParser
import AuthCatCore
import AuthCatEssentials

extension AuthCat {
    /// `authcat list`: every account, never a secret.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the accounts in the vault, without their secrets.",
            discussion: """
                Accounts are sorted by issuer, then name, ignoring case. Each line shows \
                ISSUER:NAME, the type, the algorithm, the number of digits, the period (TOTP) \
                or next counter (HOTP), and the tags. With no accounts (or no vault) yet, \
                standard error says so and the status is 1; --json prints [] then.

                --json prints an array of objects with id, issuer, name, type, algorithm, \
                digits, period (null for HOTP), counter (null for TOTP) and tags.

                Examples:
                  authcat list
                  authcat list --json | jq -r '.[].id'
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Flag(help: "Print a JSON array.")
        var json = false

        func run() throws {
            let accounts = try vaultOptions.openExistingVault()?.accounts() ?? []
            if json { return Output.print(AccountListJSON.text(accounts)) }
            if accounts.isEmpty { throw NoAccountsError(vaultOptions) }
            // One write for the whole table rather than one per line.
            let lines = TextTable.lines(accounts.map(AccountRow.cells))
            Output.print(lines.joined(separator: "\n"))
        }
    }
}
