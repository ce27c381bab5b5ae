import ArgumentParser
import AuthCatCore

extension AuthCat.Passphrase {
    /// `authcat passphrase set`.
    struct SetPassphrase: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Wrap the vault key with a new passphrase.",
            discussion: """
                Asks for the new passphrase twice on the terminal, or reads it from the \
                file named by AUTHCAT_NEW_PASSPHRASE_FILE. It must have at least 8 \
                characters, as every passphrase authcat sets (backups, sync).

                Examples:
                  authcat passphrase set
                  AUTHCAT_NEW_PASSPHRASE_FILE=/run/secrets/authcat authcat passphrase set
                """)

        @OptionGroup var vaultOptions: VaultOptions

        func run() throws {
            let vault = try vaultOptions.openVault()
            guard try !vault.hasPassphrase() else { throw VaultError.passphraseAlreadySet }
            let passphrase = try PassphraseSource.new(environment: vaultOptions.environment)
            try vault.setPassphrase(passphrase, kdf: Invocation.current.passphraseKDF)
            Output.print("passphrase set; authcat will ask for it whenever it needs a secret")
        }
    }
}
