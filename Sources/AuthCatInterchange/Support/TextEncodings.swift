import Foundation

/// Lowercase hexadecimal, as Aegis writes nonces, tags, salts and keys.
enum Hex {
    /// The bytes of `text` (either case), or nil if it is not an even number of hex digits.
    static func decode(_ text: String) -> Data? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes = Data(capacity: digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    static func encode(_ bytes: Data) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

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
