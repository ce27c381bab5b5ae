import ArgumentParser
import AuthCatCore

extension AuthCat.Passphrase {
    /// `authcat passphrase remove`.
    struct RemovePassphrase: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Store the vault key without a passphrase again.",
            discussion: """
                Needs the current passphrase. Afterwards the key file is protected by its \
                file mode (0600) only, and authcat no longer asks for a passphrase.

                Examples:
                  authcat passphrase remove
                """)

        @OptionGroup var vaultOptions: VaultOptions

        func run() throws {
            let vault = try vaultOptions.openVault()
            guard try vault.hasPassphrase() else { throw VaultError.noPassphraseSet }
            try vault.verifyPassphrase()
            try vault.removePassphrase()
            Output.print("passphrase removed; the vault key is protected by its file mode only")
        }
    }
}
