import ArgumentParser
import AuthCatCore
import Foundation

extension AuthCat {
    /// `authcat config get KEY`: one value.
    struct ConfigGet: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get", abstract: "Print the value of a setting; exit 1 if it is not set.")

        @OptionGroup var vaultOptions: VaultOptions
        @OptionGroup var scope: ConfigScope
        @Flag(help: "Print a JSON object with key, value and synced.") var json = false
        @Argument(help: "The setting's key.") var key: String

        func run() async throws {
            let values = try ConfigValues.read(scope: scope, options: vaultOptions)
            guard let value = values[key] else { throw ConfigError.notSet(key: key, noun: scope.noun) }
            if json {
                Output.print(try ConfigValues.json(["key": .string(key), "value": .string(value), "synced": .bool(scope.synced)]))
            } else {
                Output.print(value)
            }
        }
    }
}
