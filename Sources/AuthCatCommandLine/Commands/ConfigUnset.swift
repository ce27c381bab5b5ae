import ArgumentParser
import AuthCatCore

extension AuthCat {
    /// `authcat config unset KEY`.
    struct ConfigUnset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unset", abstract: "Remove a setting; removing one that is not set does nothing.")

        @OptionGroup var vaultOptions: VaultOptions
        @OptionGroup var scope: ConfigScope
        @Argument(help: "The setting's key.") var key: String

        func run() async throws {
            guard let vault = try vaultOptions.openExistingVault() else { return }
            guard scope.synced else { return try vault.setSetting(key, to: nil) }
            if try vault.write(author: .cli, { try $0.removePreference(key) }) {
                VaultChangeHook.vaultDidChange(vault, options: vaultOptions)
            }
        }
    }
}
