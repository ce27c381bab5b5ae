extension AccountQuery {
    /// `text` as matching compares it: lowercased, and with the accents of
    /// Latin letters taken off (`Zoë` as `zoe`, `Łukasz` as `lukasz`,
    /// `straße` as `strasse`), whether they were typed as one character or
    /// as a letter followed by combining marks. One rule for both programs
    /// and for completion.
    ///
    /// A table rather than Foundation's `folding(options:locale:)`, which
    /// FoundationEssentials lacks and which would tie the quick front to ICU;
    /// ASCII, the common case, returns after lowercasing.
    public static func folded(_ text: String) -> String {
        let lower = text.lowercased()
        guard !lower.utf8.allSatisfy({ $0 < 0x80 }) else { return lower }
        var out = String.UnicodeScalarView()
        for scalar in lower.unicodeScalars {
            if combiningMarks.contains(scalar.value) { continue }
            if let base = latinBases[scalar.value] {
                out.append(contentsOf: base.unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Combining Diacritical Marks: what a decomposed `ë` carries after its `e`.
    private static let combiningMarks: ClosedRange<UInt32> = 0x300...0x36F

    /// Lowercase letters of Latin-1 Supplement and Latin Extended-A, and
    /// their letters without accents.
    private static let latinBases: [UInt32: String] = {
        let groups: [(String, String)] = [
            ("àáâãäåāăą", "a"), ("æ", "ae"), ("çćĉċč", "c"), ("ďđð", "d"), ("èéêëēĕėęě", "e"),
            ("ĝğġģ", "g"), ("ĥħ", "h"), ("ìíîïĩīĭįı", "i"), ("ĳ", "ij"), ("ĵ", "j"), ("ķĸ", "k"),
            ("ĺļľŀł", "l"), ("ñńņňŉŋ", "n"), ("òóôõöøōŏő", "o"), ("œ", "oe"), ("ŕŗř", "r"),
            ("śŝşšſ", "s"), ("ß", "ss"), ("ţťŧ", "t"), ("þ", "th"), ("ùúûüũūŭůűų", "u"), ("ŵ", "w"),
            ("ýÿŷ", "y"), ("źżž", "z"),
        ]
        var table: [UInt32: String] = [:]
        for (letters, base) in groups {
            for scalar in letters.unicodeScalars { table[scalar.value] = base }
        }
        return table
    }()
}
