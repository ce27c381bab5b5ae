import ArgumentParser
import AuthCatCore
import AuthCatEssentials
import Foundation

extension AuthCat {
    /// `authcat config …`: this device's settings, and the synced preferences that travel with the vault.
    struct Config: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "config",
            abstract: "Show and change settings.",
            discussion: """
                Without --synced, settings are local to this device and never synced. With \
                --synced, they are preferences stored in the vault: they appear in history and, \
                when sync is on, travel to every device. Synced preferences are limited to \
                1,024 keys, keys of at most 64 bytes, and 1 MB of keys and values together; \
                a change that would break a limit is refused and changes nothing.

                The settings authcat reads (local to this device):
                \(ConfigKey.helpText)

                Any other key must be your own, named user.NAME (for example user.editor): \
                authcat stores it and never reads it, locally or, with --synced, on every \
                device. Other keys are refused, so that a typo cannot pass for a setting. \
                config needs a vault: it never creates one.

                Examples:
                  authcat config set history.limit 50
                  authcat config set --synced user.team platform
                  authcat config list --json
                """,
            subcommands: [ConfigGet.self, ConfigSet.self, ConfigUnset.self, ConfigList.self])
    }
}

/// The flag every `config` subcommand shares.
struct ConfigScope: ParsableArguments {
    @Flag(help: "Use the synced preferences instead of this device's local settings.")
    var synced = false

    /// "synced preference" or "local setting", for messages.
    var noun: String { synced ? "synced preference" : "local setting" }
}

extension AuthCat {
    /// `authcat config get KEY`: one value.
    struct ConfigGet: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "get", abstract: "Print the value of a setting; exit 1 if it is not set.")

        @OptionGroup var vaultOptions: VaultOptions
        @OptionGroup var scope: ConfigScope
        @Flag(help: "Print a JSON object with key, value and synced.") var json = false
        @Argument(help: "The setting's key.") var key: String

        func run(in invocation: Invocation) async throws {
            let values = try ConfigValues.read(scope: scope, options: vaultOptions, in: invocation)
            guard let value = values[key] else { throw ConfigError.notSet(key: key, noun: scope.noun) }
            if json {
                invocation.output.print(
                    try ConfigValues.json(["key": .string(key), "value": .string(value), "synced": .bool(scope.synced)])
                )
            } else {
                invocation.output.print(value)
            }
        }
    }
}

extension AuthCat {
    /// `authcat config list`: every setting, sorted by key.
    struct ConfigList: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List settings as key=value lines, sorted by key.")

        @OptionGroup var vaultOptions: VaultOptions
        @OptionGroup var scope: ConfigScope
        @Flag(help: "Print one JSON object of keys and values.") var json = false

        func run(in invocation: Invocation) async throws {
            let values = try ConfigValues.read(scope: scope, options: vaultOptions, in: invocation)
            if json {
                invocation.output.print(try ConfigValues.json(values.mapValues { .string($0) }))
            } else {
                for key in values.keys.sorted() {
                    // A value may hold line breaks; escaping them keeps one setting per line.
                    invocation.output.print("\(key)=\(TerminalText.sanitized(values[key] ?? ""))")
                }
            }
        }
    }
}

extension AuthCat {
    /// `authcat config set KEY VALUE`.
    struct ConfigSet: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set a setting; synced preferences over quota are refused.")

        @OptionGroup var vaultOptions: VaultOptions
        @OptionGroup var scope: ConfigScope
        @Argument(help: "The setting's key: one authcat reads (see 'authcat config --help') or user.NAME.") var key:
            String
        @Argument(help: "The value. Settings are not secrets, so they may be given here.") var value: String

        /// An unknown key or a value the setting does not take is a usage
        /// error (status 64), found before the vault is opened.
        func validate() throws {
            do {
                try PreferenceQuota.checkKey(key)
                try ConfigKey.checkSettable(key, value: value, synced: scope.synced)
            } catch let error as PreferenceError {
                throw ValidationError(error.description)
            } catch let error as ConfigError {
                throw ValidationError(error.description)
            }
        }

        func run(in invocation: Invocation) async throws {
            // A setting belongs to a vault: config never creates one.
            guard let vault = try vaultOptions.openExistingVault(in: invocation) else { throw ConfigError.noVault }
            guard scope.synced else { return try vault.setSetting(key, to: value) }
            try vault.write(author: .cli) { try $0.setPreference(key, to: value) }
            VaultChangeHook.vaultDidChange(vault, in: invocation)
        }
    }
}

extension AuthCat {
    /// `authcat config unset KEY`.
    struct ConfigUnset: InvokedCommand {
        static let configuration = CommandConfiguration(
            commandName: "unset", abstract: "Remove a setting; removing one that is not set does nothing.")

        @OptionGroup var vaultOptions: VaultOptions
        @OptionGroup var scope: ConfigScope
        @Argument(help: "The setting's key.") var key: String

        func run(in invocation: Invocation) async throws {
            guard let vault = try vaultOptions.openExistingVault(in: invocation) else { return }
            guard scope.synced else { return try vault.setSetting(key, to: nil) }
            if try vault.write(author: .cli, { try $0.removePreference(key) }) {
                VaultChangeHook.vaultDidChange(vault, in: invocation)
            }
        }
    }
}
