/// Turns the labels that match a typed word into bash's `COMPREPLY`: what
/// readline puts in place of the end of the word.
///
/// Readline replaces only the text after the word's last unquoted word-break
/// character (`COMP_WORDBREAKS`: `:` and `=` among them), or after a quote
/// still open. So each label loses the part before that point, which must be
/// what was typed there (case ignored); labels that do not start so cannot be
/// put on the line and are left out. The rest is quoted for where it goes,
/// since the script turns off bash's file-name quoting (which escapes every
/// colon). Readline replaces the word with the longest common start of
/// several candidates; when that would drop typed text (a match in the
/// middle of a name), the typed text is offered too, which leaves it as it is.
public struct BashCompletionReply: Sendable {
    /// bash's default `COMP_WORDBREAKS`, for when the script did not pass the user's.
    public static let defaultWordBreaks = " \t\n\"'><=;|&(:"

    public let word: ShellWord
    public let wordBreaks: String

    public init(word: ShellWord, wordBreaks: String) {
        self.word = word
        self.wordBreaks = wordBreaks
    }

    /// The typed word's text (quotes removed) that labels are matched against.
    public var text: String { word.text }

    public func candidates(for labels: [String]) -> [String] {
        let kept = keptCount
        let keptText = String(word.units.prefix(kept.units).map(\.character))
        let replaced = String(word.typed.dropFirst(kept.typed))
        let quote = word.openQuote?.character
        let keptLowercased = keptText.lowercased()
        let replies = labels.compactMap { label -> String? in
            guard label.lowercased().hasPrefix(keptLowercased) else { return nil }
            return Self.quoted(String(label.dropFirst(keptText.count)), inside: quote)
        }
        guard replies.count > 1, !replaced.isEmpty else { return replies }
        let common = Self.commonPrefix(of: replies)
        if common.lowercased().hasPrefix(replaced.lowercased()) { return replies }
        // Offering the typed text empties the common start only if it begins
        // with another character than every reply; else its first character is
        // escaped, which means the same to the shell.
        let same = replaced.first == common.first
        return replies + [same ? "\\" + replaced : replaced]
    }

    /// How much of the word readline keeps: as characters of the typed word, and of its text.
    private var keptCount: (typed: Int, units: Int) {
        if let open = word.openQuote {
            return (open.position + 1, word.units.prefix { $0.typedEnd <= open.position }.count)
        }
        guard let last = word.units.lastIndex(where: { !$0.quoted && wordBreaks.contains($0.character) }) else {
            return (0, 0)
        }
        return (word.units[last].typedEnd, last + 1)
    }

    /// `text` as bash reads it back at that point: backslashes outside quotes,
    /// and inside double quotes before `"`, `\`, `$` and `` ` ``; a single quote
    /// inside single quotes closes them, adds an escaped one and reopens them.
    ///
    /// Built by appending to one string: a Tab can offer a thousand labels.
    static func quoted(_ text: String, inside quote: Character?) -> String {
        var quoted = ""
        quoted.reserveCapacity(text.utf8.count)
        for character in text {
            switch quote {
            case "'" where character == "'":
                quoted += "'\\''"
                continue
            case "\"" where "\"\\$`".contains(character):
                quoted.append("\\")
            case nil where !isPlain(character):
                quoted.append("\\")
            default:
                break
            }
            quoted.append(character)
        }
        return quoted
    }

    /// Characters that mean themselves anywhere in an unquoted bash word.
    private static func isPlain(_ character: Character) -> Bool {
        // ASCII first, without Unicode's property tables: the same answer for it.
        if character.utf8.count == 1, let byte = character.utf8.first {
            return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "_-.,/:@%+=".utf8.contains(byte)
        }
        return character.isLetter || character.isNumber || "_-.,/:@%+=".contains(character)
    }

    private static func commonPrefix(of strings: [String]) -> String {
        guard var common = strings.first.map(Array.init) else { return "" }
        for string in strings.dropFirst() {
            common = Array(zip(common, string).prefix { $0 == $1 }.map(\.0))
        }
        return String(common)
    }
}
