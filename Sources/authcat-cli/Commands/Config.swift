import ArgumentParser

extension AuthCat {
    /// `authcat config …`: this device's settings, and the synced preferences that travel with the vault.
    struct Config: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show and change settings.",
            discussion: """
                Without --synced, settings are local to this device and never synced. With \
                --synced, they are preferences stored in the vault: they appear in history and, \
                when sync is on, travel to every device. Synced preferences are limited to \
                1,024 keys, keys of at most 64 bytes, and 1 MB of keys and values together; \
                a change that would break a limit is refused and changes nothing.
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
