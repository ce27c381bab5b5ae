import ArgumentParser
import AuthCatCore

extension AuthCat {
    /// `authcat config set KEY VALUE`.
    struct ConfigSet: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set a setting; synced preferences over quota are refused.")

        @OptionGroup var vaultOptions: VaultOptions
        @OptionGroup var scope: ConfigScope
        @Argument(help: "The setting's key: one authcat reads (see 'authcat config --help') or user.NAME.") var key: String
        @Argument(help: "The value. Settings are not secrets, so they may be given here.") var value: String

        func validate() throws {
            do {
                try PreferenceQuota.checkKey(key)
            } catch let error as PreferenceError {
                throw ValidationError(error.description)
            }
        }

        func run() async throws {
            try ConfigKey.checkSettable(key, value: value, synced: scope.synced)
            // A setting belongs to a vault: config never creates one.
            guard let vault = try vaultOptions.openExistingVault() else { throw ConfigError.noVault }
            guard scope.synced else { return try vault.setSetting(key, to: value) }
            try vault.write(author: .cli) { try $0.setPreference(key, to: value) }
            VaultChangeHook.vaultDidChange(vault, options: vaultOptions)
        }
    }
}
