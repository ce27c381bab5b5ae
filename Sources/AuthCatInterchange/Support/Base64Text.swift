import Foundation

/// Forgiving base64 for data copied out of URIs: percent-escapes undone,
/// spaces read as the `+` that form encoding turned them into, the URL-safe
/// alphabet accepted, padding optional.
enum Base64Text {
    static func decode(_ text: Substring) -> Data? {
        guard var value = String(text).removingPercentEncoding else { return nil }
        value = value.replacingOccurrences(of: " ", with: "+")
            .replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
            .trimmingCharacters(in: CharacterSet(charactersIn: "="))
        let remainder = value.utf8.count % 4
        guard remainder != 1 else { return nil }
        if remainder > 0 { value += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: value)
    }
}
