import ArgumentParser

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
