import ArgumentParser
import AuthCatCore
import AuthCatEssentials

extension AuthCat {
    /// `authcat rm QUERY`: deletes an account, which `authcat restore` can bring back.
    struct Remove: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Remove an account (restore brings it back).",
            discussion: """
                On a terminal authcat asks before removing. Without a terminal it refuses \
                unless --yes is given, so that a script cannot remove the wrong account by \
                accident. The account stays in the vault's history, and \
                'authcat restore QUERY' brings it back with its secret.

                Examples:
                  authcat rm GitHub:alice@example.com
                  authcat rm 1b4e28ba-2fa1-11d2-883f-0016d3cca427 --yes
                """,
            aliases: ["remove"])

        @OptionGroup var vaultOptions: VaultOptions

        @Argument(
            help: "The account: id, ISSUER:NAME, or part of the issuer or name.",
            completion: AccountCompletion.live)
        var query: String

        @Flag(name: [.customShort("y"), .long], help: "Remove without asking.")
        var yes = false

        func run(in invocation: Invocation) throws {
            let vault = try vaultOptions.openVault(in: invocation)
            // The vault's passphrase, which the removal needs, is asked before
            // the question: typed at a [y/N] by habit, it would be echoed.
            try vault.unlock()
            let confirmed = yes ? nil : try confirmedAccount(in: vault, in: invocation)
            // Without a question to ask, the account is found in the same
            // transaction that removes it; a confirmed one is removed by id.
            let (account, removed) = try vault.write(author: .cli) { writer in
                let account = try confirmed ?? writer.account(matching: query)
                return (account, try writer.delete(account.id))
            }
            let label = TerminalText.sanitized(account.label)
            guard removed else {
                invocation.output.print("\(label) was already removed by another authcat process")
                return
            }
            VaultChangeHook.vaultDidChange(vault, in: invocation)
            invocation.output.print("removed \(label); 'authcat restore \(account.id.vaultString)' brings it back")
        }

        /// The account the user agreed to remove, asked on the terminal.
        private func confirmedAccount(in vault: Vault, in invocation: Invocation) throws -> Account {
            let account = try vault.account(matching: query)
            let label = TerminalText.sanitized(account.label)
            guard invocation.terminal.standardInputIsTerminal else {
                throw InputError.notConfirmed("not removing \(label) without confirmation; pass --yes")
            }
            guard
                try TypedAnswer.confirm(
                    "remove \(label)? [y/N] ", hint: "pass --yes to remove without asking", in: invocation)
            else {
                throw InputError.notConfirmed("kept \(label)")
            }
            return account
        }
    }
}
