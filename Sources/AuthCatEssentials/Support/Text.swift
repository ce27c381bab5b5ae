#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The small text helpers both programs share: UTF-8 bytes, counted nouns,
// `--json` case names and trimming.

extension Data {
    /// The UTF-8 bytes of `text`.
    ///
    /// `Data(text.utf8)` asks the Swift runtime, the first time, whether a
    /// string's UTF-8 view is `ContiguousBytes`: a search through every
    /// protocol conformance of the program, about 150,000 instructions in the
    /// quick front, whose whole `code` runs about 3 million. Copying from the
    /// string's own buffer asks nothing.
    public init(utf8 text: String) {
        var text = text
        self = text.withUTF8 { Data(buffer: $0) }
    }
}

extension Int {
    /// The number with its noun, singular for one: `1 transaction`,
    /// `3 transactions`; `plural` for nouns that take more than an `s`.
    public func counted(_ noun: String, plural: String? = nil) -> String {
        "\(self) \(self == 1 ? noun : plural ?? noun + "s")"
    }
}

extension String {
    /// A Swift case name as a `--json` value: `credentialsRejected` → `credentials_rejected`.
    public var snakeCased: String {
        reduce(into: "") { text, character in
            if character.isUppercase { text += "_" + character.lowercased() } else { text.append(character) }
        }
    }
}

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
