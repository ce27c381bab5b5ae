/// Text from the vault made safe to print on a terminal.
///
/// Account names can come from a scanned QR code or an imported file, so a
/// name could carry escape sequences that rewrite the screen; they are shown
/// as `\u{…}` instead.
public enum TerminalText {
    public static func sanitized(_ text: String) -> String {
        // Nearly all names are printable ASCII; checking bytes is far cheaper
        // than looking up each character's Unicode category.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
