import ArgumentParser
import AuthCatCore
import AuthCatEssentials

extension AuthCat {
    /// `authcat follow remove NAME`: stops following a file.
    struct FollowRemove: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Stop following a file; the accounts it brought stay.",
            discussion: """
                The accounts the file brought stay in the vault as any other account, and its \
                kept password is forgotten.

                Examples:
                  authcat follow remove phone
                """,
            aliases: ["rm"])

        @OptionGroup var vaultOptions: VaultOptions

        @Argument(help: "The followed file's name ('authcat follow list' shows them).")
        var name: String

        func run(in invocation: Invocation) throws {
            let vault = try vaultOptions.openVault(in: invocation)
            let file = try vault.write(author: .cli) { writer in
                let file = try writer.followedFile(named: name)
                try writer.removeFollowedFile(file)
                return file
            }
            invocation.output.print(
                "no longer following '\(TerminalText.sanitized(file.name))'; the accounts it brought stay")
        }
    }
}
