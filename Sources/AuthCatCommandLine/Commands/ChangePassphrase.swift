import ArgumentParser
import AuthCatCore

extension AuthCat.Passphrase {
    /// `authcat passphrase change`.
    struct ChangePassphrase: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "change",
            abstract: "Wrap the vault key with a different passphrase.",
            discussion: """
                Asks for the current passphrase first (or reads AUTHCAT_PASSPHRASE_FILE), \
                then for the new one twice (or reads AUTHCAT_NEW_PASSPHRASE_FILE). A wrong \
                current passphrase changes nothing.

                Examples:
                  authcat passphrase change
                """)

        @OptionGroup var vaultOptions: VaultOptions

        func run() throws {
            let vault = try vaultOptions.openVault()
            guard try vault.hasPassphrase() else { throw VaultError.noPassphraseSet }
            try vault.verifyPassphrase()
            let passphrase = try PassphraseSource.new(environment: vaultOptions.environment)
            try vault.changePassphrase(to: passphrase, kdf: Invocation.current.passphraseKDF)
            Output.print("passphrase changed")
        }
    }
}
