import Foundation

/// The JSON that `--json` options print: pretty, keys in the order each type
/// encodes them, slashes unescaped, dates as whole seconds since 1970.
public enum JSONOutput {
    /// `value` as JSON text, without a trailing newline.
    public static func string<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
