import ArgumentParser
import AuthCatCore
import AuthCatEssentials

extension AuthCat {
    /// `authcat restore QUERY`: brings back a removed account.
    struct Restore: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Bring back a removed account, secret included.",
            discussion: """
                QUERY is matched among removed accounts only: the id that 'authcat rm' \
                printed, ISSUER:NAME, or part of the issuer or name. When the same name \
                was removed more than once, use the id. Restoring fails if a live account \
                has the same name; rename or remove that one first. History records the \
                change under the author 'restore'.

                Examples:
                  authcat restore GitHub:alice@example.com
                  authcat restore 1b4e28ba-2fa1-11d2-883f-0016d3cca427
                """)

        @OptionGroup var vaultOptions: VaultOptions

        @Argument(
            help: "The removed account: id, ISSUER:NAME, or part of the issuer or name.",
            completion: AccountCompletion.deleted)
        var query: String

        func run(in invocation: Invocation) throws {
            let vault = try vaultOptions.openVault(in: invocation)
            let restored = try vault.write(author: .restore) { writer in
                try writer.restore(try writer.deletedAccount(matching: query).id)
            }
            VaultChangeHook.vaultDidChange(vault, in: invocation)
            invocation.output.print("restored \(TerminalText.sanitized(restored.label))")
        }
    }
}
