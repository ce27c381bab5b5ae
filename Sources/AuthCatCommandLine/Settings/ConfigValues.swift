import AuthCatCore
import AuthCatEssentials

/// Reading settings for the `config` commands, and their JSON.
enum ConfigValues {
    /// The local settings or synced preferences; none when there is no vault yet.
    static func read(scope: ConfigScope, options: VaultOptions, in invocation: Invocation) throws -> [String: String] {
        guard let vault = try options.openExistingVault(in: invocation) else { return [:] }
        return scope.synced ? try vault.preferences() : try vault.settings()
    }

    /// One JSON object with its keys sorted, so output is stable.
    static func json(_ values: [String: ConfigJSONValue]) throws -> String {
        try JSONOutput.string(SortedObject(values: values))
    }

    private struct SortedObject: Encodable {
        let values: [String: ConfigJSONValue]

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: AnyKey.self)
            for key in values.keys.sorted() {
                switch values[key] {
                case .string(let text)?: try container.encode(text, forKey: AnyKey(key))
                case .bool(let flag)?: try container.encode(flag, forKey: AnyKey(key))
                case nil: break
                }
            }
        }
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// A value in a `config --json` object.
enum ConfigJSONValue {
    case string(String)
    case bool(Bool)
}
