import Foundation

/// The JSON that `--json` options print: pretty, keys sorted so that output
/// is stable, slashes unescaped, dates as seconds since 1970.
public enum JSONOutput {
    /// `value` as JSON text, without a trailing newline.
    public static func string<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        // Foundation pretty-prints an empty array as "[", a blank line, "]".
        // JSON strings escape line breaks, so a bracket, line breaks and spaces,
        // then a bracket, can only be such an array.
        return text.replacingOccurrences(of: #"\[\n\s*\n\s*\]"#, with: "[]", options: .regularExpression)
    }
}
