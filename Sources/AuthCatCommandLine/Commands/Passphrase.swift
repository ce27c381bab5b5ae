import ArgumentParser
import AuthCatCore
import AuthCatEssentials

extension AuthCat {
    /// `authcat passphrase set|change|remove`.
    struct Passphrase: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "passphrase",
            abstract: "Protect the vault key with a passphrase, change it, or remove it.",
            discussion: """
                Without a passphrase the vault key file is protected by its file mode \
                (0600) only. With one, the key is wrapped with a key derived by Argon2id, \
                and authcat asks for the passphrase whenever it needs a secret (add, code, \
                show --uri) unless the vault is unlocked ('authcat unlock'); list, history \
                and shell completion never ask. Changing or removing the passphrase always \
                asks for the current one, and locks the vault.

                authcat reads the passphrase from the file named by AUTHCAT_PASSPHRASE_FILE \
                (its first line) or asks on the terminal. A new passphrase is typed twice, \
                or read from the file named by AUTHCAT_NEW_PASSPHRASE_FILE. Passphrases are \
                never taken as arguments.

                Examples:
                  authcat passphrase set
                  AUTHCAT_PASSPHRASE_FILE=~/.config/authcat/pass authcat code github
                  authcat passphrase change
                  authcat passphrase remove
                """,
            subcommands: [SetPassphrase.self, ChangePassphrase.self, RemovePassphrase.self])
    }
}

extension AuthCat.Passphrase {
    /// `authcat passphrase set`.
    struct SetPassphrase: InvokedCommand {
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

        func run(in invocation: Invocation) throws {
            let vault = try vaultOptions.openVault(in: invocation)
            guard try !vault.hasPassphrase() else { throw VaultStoreError.passphraseAlreadySet }
            let passphrase = try PassphraseSource.new(in: invocation)
            try vault.setPassphrase(passphrase, kdf: invocation.passphraseKDF)
            invocation.output.print("passphrase set; authcat will ask for it whenever it needs a secret")
        }
    }
}

extension AuthCat.Passphrase {
    /// `authcat passphrase change`.
    struct ChangePassphrase: InvokedCommand {
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

        func run(in invocation: Invocation) throws {
            let vault = try vaultOptions.openVault(in: invocation)
            guard try vault.hasPassphrase() else { throw VaultStoreError.noPassphraseSet }
            try vault.verifyPassphrase()
            let passphrase = try PassphraseSource.new(in: invocation)
            try vault.changePassphrase(to: passphrase, kdf: invocation.passphraseKDF)
            invocation.output.print("passphrase changed")
        }
    }
}

extension AuthCat.Passphrase {
    /// `authcat passphrase remove`.
    struct RemovePassphrase: InvokedCommand {
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

        func run(in invocation: Invocation) throws {
            let vault = try vaultOptions.openVault(in: invocation)
            guard try vault.hasPassphrase() else { throw VaultStoreError.noPassphraseSet }
            try vault.verifyPassphrase()
            try vault.removePassphrase()
            invocation.output.print("passphrase removed; the vault key is protected by its file mode only")
        }
    }
}
