import AuthCatCore
import Foundation

/// The JSON that `--json` options print, in the one convention docs/JSON.md
/// describes: keys in snake_case (each document names its keys), instants as
/// whole seconds since 1970, pretty, keys sorted so that output is stable,
/// slashes unescaped.
public enum JSONOutput {
    /// The version of the documented shapes; it changes only when a key is
    /// removed, renamed or changes type. New keys may appear within a version.
    public static let formatVersion = 1

    /// `value` as JSON text, without a trailing newline.
    public static func string<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Int64(date.timeIntervalSince1970.rounded(.down)))
        }
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        // Foundation pretty-prints an empty array as "[", a blank line, "]"
        // (and an empty object so). JSON strings escape line breaks, so a
        // bracket, line breaks and spaces, then a bracket, can only be such.
        return text.replacingOccurrences(of: #"\[\n\s*\n\s*\]"#, with: "[]", options: .regularExpression)
            .replacingOccurrences(of: #"\{\n\s*\n\s*\}"#, with: "{}", options: .regularExpression)
    }

    /// `value` on one line, for diagnostics on standard error.
    public static func line<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
