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
/// several candidates, which `code` accepts (a start several labels share names
/// them all) but which must keep what was typed, whichever way readline
/// compares case (`keepsTheWord`): where labels match in the middle (`ali`
/// in `GitHub:alice` and `GitLab:alice`), the typed word is listed with them
/// (`withTypedWord`) and the word stays as typed.
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
        let placeable = labels.filter { $0.lowercased().hasPrefix(keptLowercased) }
        let replies = placeable.map { Self.quoted(String($0.dropFirst(keptText.count)), inside: quote) }
        guard replies.count > 1, !Self.keepsTheWord(replaced, replies) else { return replies }
        return Self.withTypedWord(replaced, listed: replies)
    }

    /// Whether readline, given `replies`, keeps the typed word or only adds
    /// to it. It puts in the bytes all candidates share (case ignored with
    /// `completion-ignore-case`), and keeps the word when they share none;
    /// so each way, that start must be empty or begin with the word.
    static func keepsTheWord(_ typed: String, _ replies: [String]) -> Bool {
        let word = Array(typed.lowercased().utf8)
        return [replies, replies.map { $0.lowercased() }].allSatisfy { candidates in
            let shared = Array(String(decoding: sharedBytes(of: candidates), as: UTF8.self).lowercased().utf8)
            return shared.isEmpty || shared.starts(with: word)
        }
    }

    /// `replies` with the word as typed before them, when readline would
    /// replace it with the start they share. The typed word begins
    /// differently from the labels that hold it inside, which leaves them no
    /// shared start; when every candidate begins as the word does (`Ab` in
    /// `Abra:x` and `Aardvark:ab`), only a space before it does. Bound to
    /// menu-complete, readline puts in the typed word as one choice.
    static func withTypedWord(_ typed: String, listed replies: [String]) -> [String] {
        let sharesStart = !sharedBytes(of: ([typed] + replies).map { $0.lowercased() }).isEmpty
        return [sharesStart ? " " + typed : typed] + replies.sorted()
    }

    /// The bytes (UTF-8) that all of `strings` begin with, as readline compares them.
    static func sharedBytes(of strings: [String]) -> [UInt8] {
        guard var shared = strings.first.map({ Array($0.utf8) }) else { return [] }
        for string in strings.dropFirst() {
            shared = Array(zip(shared, string.utf8).prefix { $0 == $1 }.map(\.0))
        }
        return shared
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
    /// bash's special characters (blanks, quotes, `$`, globs, `;`, `|`…) are
    /// all ASCII: a character made only of other code points (an emoji, an
    /// accented letter) means itself, and is shown as it is rather than behind
    /// a backslash. A non-ASCII mark joined to an ASCII character is judged
    /// by that character.
    private static func isPlain(_ character: Character) -> Bool {
        character.utf8.allSatisfy { byte in
            byte >= 0x80 || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "_-.,/:@%+=".utf8.contains(byte)
        }
    }

    static func commonPrefix(of strings: [String]) -> String {
        guard var common = strings.first.map(Array.init) else { return "" }
        for string in strings.dropFirst() {
            common = Array(zip(common, string).prefix { $0 == $1 }.map(\.0))
        }
        return String(common)
    }
}
