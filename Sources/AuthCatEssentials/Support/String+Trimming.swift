extension StringProtocol {
    /// Without leading and trailing spaces and tabs: Unicode category Zs and
    /// U+0009, the set Foundation calls `.whitespaces`, trimmed by scalars as
    /// Foundation's `trimmingCharacters(in: .whitespaces)` does (which
    /// FoundationEssentials lacks).
    var trimmingSpacesAndTabs: String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        var trimmed = String.UnicodeScalarView()
        trimmed.append(contentsOf: scalars[first...last])
        return String(trimmed)
    }
}
