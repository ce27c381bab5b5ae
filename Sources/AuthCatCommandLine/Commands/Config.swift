import ArgumentParser

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
