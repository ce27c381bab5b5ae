import ArgumentParser
import AuthCatCore
import AuthCatEssentials

extension AuthCat {
    /// `authcat list`: every account, never a secret.
    struct List: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the accounts in the vault, without their secrets.",
            discussion: """
                Accounts are sorted by issuer, then name, ignoring case. Each line shows \
                ISSUER:NAME, the type, the algorithm, the number of digits, the period (TOTP) \
                or next counter (HOTP), and the tags. With no accounts (or no vault) yet, \
                standard error says so and the status is 1, as for 'code' and 'history'; \
                with --json, a vault with no accounts (or none with the tags given) prints \
                [] and the status is 0, so that a script can pipe it on; no vault at all \
                is still an error.

                --tag T lists the accounts tagged T (repeat for accounts with every tag \
                given). --removed lists the removed accounts, what 'authcat restore' can \
                bring back, each with its id and when it was removed; none is not an error then.

                --json prints an array of objects with id, issuer, name, type, algorithm, \
                digits, period (null for HOTP), counter (null for TOTP) and tags.

                Examples:
                  authcat list
                  authcat list --tag work
                  authcat list --removed
                  authcat list --json | jq -r '.[].id'
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Flag(help: "Print a JSON array.")
        var json = false

        @Option(
            name: .customLong("tag"),
            help: ArgumentHelp("Only accounts with this tag; repeat for several.", valueName: "tag"),
            completion: TagCompletion.all)
        var tags: [String] = []

        @Flag(help: "List the removed accounts, which 'authcat restore' can bring back.")
        var removed = false

        func validate() throws {
            try TagArgument.validate(tags, option: "--tag")
        }

        func run(in invocation: Invocation) throws {
            guard let vault = try vaultOptions.openExistingVault(in: invocation) else {
                throw NoAccountsError(vaultOptions, in: invocation)
            }
            if removed { return try listRemoved(in: vault, output: invocation.output) }
            let wanted = Account.normalizedTags(tags)
            let accounts = try vault.accounts().filter { $0.hasTags(wanted) }
            if json { return invocation.output.print(AccountListJSON.text(accounts)) }
            if accounts.isEmpty {
                guard wanted.isEmpty else { throw NoTaggedAccountsError(tags: wanted) }
                throw NoAccountsError(vaultOptions, in: invocation)
            }
            // One write for the whole table rather than one per line.
            let lines = TextTable.lines(accounts.map(AccountRow.cells), width: invocation.terminal.standardOutputWidth)
            invocation.output.print(lines.joined(separator: "\n"))
        }

        /// What `restore` can bring back: the removed accounts, newest
        /// removal first, each with the id `restore` takes when a label was
        /// removed more than once. None is an answer, not an error.
        private func listRemoved(in vault: Vault, output: Output) throws {
            let wanted = Account.normalizedTags(tags)
            let removed = try vault.accounts(includingDeleted: true)
                .filter { $0.deletedAt != nil && $0.hasTags(wanted) }
                .sorted { ($0.deletedAt ?? .distantPast) > ($1.deletedAt ?? .distantPast) }
            if json {
                return output.print(try JSONOutput.string(removed.map(RemovedAccountSummary.init)))
            }
            guard !removed.isEmpty else { return output.note("no removed accounts") }
            let rows = removed.map { account in
                [account.label, account.id.vaultString, "removed " + (account.deletedAt.map(Timestamp.text) ?? "")]
            }
            output.print(TextTable.lines(rows).joined(separator: "\n"))
        }
    }
}
