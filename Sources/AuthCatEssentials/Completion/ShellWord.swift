/// A word as typed on a shell's command line, read back into the text it
/// stands for: backslashes and single or double quotes removed, as bash, zsh
/// and fish do. A quote still open at the end is allowed, since completion
/// runs while the word is being typed.
public struct ShellWord: Equatable, Sendable {
    /// One character of the text, and where it came from in the typed word.
    public struct Unit: Equatable, Sendable {
        public var character: Character
        /// Inside quotes or after a backslash: never a word break.
        public var quoted: Bool
        /// How many characters of the typed word stand for the text up to and including this one.
        public var typedEnd: Int
    }

    public let typed: String
    public private(set) var units: [Unit] = []
    /// The position in `typed` of a quote left open at its end, and the quote.
    public private(set) var openQuote: (position: Int, character: Character)?

    public var text: String { String(units.map(\.character)) }

    public init(_ typed: String) {
        self.typed = typed
        let characters = Array(typed)
        var quote: (position: Int, character: Character)?
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch (quote?.character, character) {
            case (nil, "\\") where index + 1 < characters.count,
                ("\"", "\\") where index + 1 < characters.count && "$`\"\\".contains(characters[index + 1]):
                index += 1
                units.append(Unit(character: characters[index], quoted: true, typedEnd: index + 1))
            case (nil, "'"), (nil, "\""):
                quote = (index, character)
            case ("'", "'"), ("\"", "\""):
                quote = nil
            default:
                units.append(Unit(character: character, quoted: quote != nil, typedEnd: index + 1))
            }
            index += 1
        }
        openQuote = quote
    }

    public static func == (lhs: ShellWord, rhs: ShellWord) -> Bool { lhs.typed == rhs.typed }
}
