import ArgumentParser
import AuthCatCore
import AuthCatEssentials

extension AuthCat {
    /// `authcat lock`: ends what `authcat unlock` started.
    struct Lock: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "lock",
            abstract: "Forget the vault key that 'authcat unlock' kept.",
            discussion: """
                Deletes the vault key from the kernel keyring at once; authcat asks for \
                the passphrase again from then on. Locking a vault that is not unlocked \
                does nothing.

                Examples:
                  authcat lock
                """)

        @OptionGroup var vaultOptions: VaultOptions

        func run(in invocation: Invocation) throws {
            let vault = try vaultOptions.openVault(in: invocation)
            invocation.output.print(vault.lock() ? "locked" : "the vault was not unlocked")
        }
    }
}
