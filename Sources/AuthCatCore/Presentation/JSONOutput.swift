import Foundation

/// The JSON that `--json` options print: pretty, keys sorted so that output
/// is stable, slashes unescaped, dates as seconds since 1970.
///
/// The text is Foundation's `JSONEncoder` output with those options, byte
/// for byte, except that an empty array prints as `[]`. `JSONTextWriter`
/// makes it, several times faster than `JSONEncoder` (`list --json` of
/// 10,000 accounts); what that writer does not handle (data, URLs,
/// decimals, floats, nested or super encoders) `JSONEncoder` makes.
public enum JSONOutput {
    /// `value` as JSON text, without a trailing newline.
    public static func string<Value: Encodable>(_ value: Value) throws -> String {
        guard let text = try JSONTextWriter.text(value) else { return try foundationString(value) }
        return text
    }

    /// `value` through Foundation's `JSONEncoder`.
    static func foundationString<Value: Encodable>(_ value: Value) throws -> String {
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

