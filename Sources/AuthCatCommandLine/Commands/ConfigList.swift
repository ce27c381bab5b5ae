import ArgumentParser
import AuthCatCore

extension AuthCat {
    /// `authcat config list`: every setting, sorted by key.
    struct ConfigList: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List settings as key=value lines, sorted by key.")

        @OptionGroup var vaultOptions: VaultOptions
        @OptionGroup var scope: ConfigScope
        @Flag(help: "Print one JSON object of keys and values.") var json = false

        func run() async throws {
            let values = try ConfigValues.read(scope: scope, options: vaultOptions)
            if json {
                Output.print(try ConfigValues.json(values.mapValues { .string($0) }))
            } else {
                for key in values.keys.sorted() {
                    // A value may hold line breaks; escaping them keeps one setting per line.
                    Output.print("\(key)=\(TerminalText.sanitized(values[key] ?? ""))")
                }
            }
        }
    }
}
