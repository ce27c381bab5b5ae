/// How a failure reads on standard error: one line, `authcat: ` and the
/// message, sanitized for the terminal. Shared by `authcat-cli`, which
/// reports every error so, and the quick front, which answers a `code`
/// query that names no account, or several, with the same line.
public enum ErrorLine {
    /// The line, without its line break. Messages can quote account names,
    /// which can come from a QR code or an import, so they are sanitized like
    /// any vault text shown on a terminal.
    public static func text(_ message: String) -> String {
        "authcat: " + self.message(message)
    }

    /// The message alone, as `text` shows it after `authcat: `.
    public static func message(_ message: String) -> String {
        TerminalText.sanitized(oneLine(message))
    }

    /// Lowercase first letter, line breaks folded, trailing period dropped.
    public static func oneLine(_ message: String) -> String {
        var text = message.split(whereSeparator: \.isNewline)
            .map(\.trimmingSpacesAndTabs)
            .filter { !$0.isEmpty }
            .joined(separator: "; ")
        if text.hasSuffix(".") { text.removeLast() }
        guard let first = text.first, first.isUppercase,
            text.dropFirst().first.map({ !$0.isUppercase }) ?? true
        else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
