import ArgumentParser
import AuthCatCore

extension AuthCat {
    /// `authcat config set KEY VALUE`.
    struct ConfigSet: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set a setting; synced preferences over quota are refused.")

        @OptionGroup var vaultOptions: VaultOptions
        @OptionGroup var scope: ConfigScope
        @Argument(help: "The setting's key (at most 64 bytes).") var key: String
        @Argument(help: "The value. Settings are not secrets, so they may be given here.") var value: String

        func validate() throws {
            do {
                try PreferenceQuota.checkKey(key)
            } catch let error as PreferenceError {
                throw ValidationError(error.description)
            }
        }

        func run() async throws {
            let vault = try vaultOptions.openOrCreateVault()
            guard scope.synced else { return try vault.setSetting(key, to: value) }
            try vault.write(author: .cli) { try $0.setPreference(key, to: value) }
            VaultChangeHook.vaultDidChange(vault, options: vaultOptions)
        }
    }
}
