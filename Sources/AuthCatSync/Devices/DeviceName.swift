import Foundation

/// The rules for a device's name: what a person may choose, what another
/// device's batch may carry, and when two names are too alike to tell apart.
///
/// A name is 1 to `maximumLength` characters that all show: no control or
/// format characters (line breaks, escapes a terminal would obey, direction
/// overrides, zero-width characters), nothing invisible or blank-looking
/// (default-ignorable code points such as the Hangul fillers, the combining
/// grapheme joiner and variation selectors; white space other than one plain
/// space between words; symbols that draw nothing, such as the braille blank),
/// no private-use, unassigned or noncharacter code points, no combining mark
/// without a letter to carry it, and not 16 hex digits (which would name
/// another device). A thief holding a device must not be able to name it so
/// that it passes for another in `sync devices`.
public enum DeviceName {
    /// The longest name, in characters (`Character`s, as people count them).
    public static let maximumLength = 64
    /// The most combining marks one character may stack: enough for any
    /// script's accents (Vietnamese stacks two), too few to draw over the
    /// lines around it.
    static let maximumMarks = 3
    /// The name a device takes when its host's name is unusable.
    static let fallback = "device"

    /// `text` as a device name, or `DeviceDirectory.NamingError.invalidName` saying why not.
    public static func validated(_ text: String) throws -> String {
        if let problem = problem(with: text) { throw DeviceDirectory.NamingError.invalidName(problem) }
        return text
    }

    /// Why `text` is not a device name, or nil when it is one.
    static func problem(with text: String) -> String? {
        if text.isEmpty { return "a device name cannot be empty" }
        if text.count > maximumLength { return "a device name has at most \(maximumLength) characters" }
        for scalar in text.unicodeScalars {
            switch kind(of: scalar) {
            case .shown: continue
            case .control:
                return "a device name cannot hold control characters (line breaks, tabs, escapes, "
                    + "direction or format marks, here \(codePoint(scalar)))"
            case .unassigned:
                return "a device name cannot hold private-use, unassigned or noncharacter code points "
                    + "(here \(codePoint(scalar)))"
            case .invisible:
                return "a device name cannot hold invisible or blank-looking characters (here \(codePoint(scalar))); "
                    + "use letters, digits, punctuation and single plain spaces"
            }
        }
        if text.first == " " || text.last == " " { return "a device name cannot start or end with a space" }
        if text.contains("  ") { return "a device name separates its words with one space, not several" }
        if let mark = unsupportedMark(in: text) {
            return "a combining mark in a device name must follow a letter, at most \(maximumMarks) to a letter "
                + "(here \(codePoint(mark)))"
        }
        if RemoteLayout.isDeviceID(text.lowercased()) {
            return "a device name cannot look like a device id (16 hex digits)"
        }
        return nil
    }

    /// A usable name made from a host name or a name another device's batch
    /// carried: each character a name may not hold is written out as its
    /// code point (`<U+3164>`), so that it shows, runs of spaces become one
    /// space and spaces at the ends go, and it is cut to the bound;
    /// `fallback` when nothing is left.
    public static func sanitized(_ text: String) -> String {
        var name = escaped(text)
        while name.contains("  ") { name = name.replacingOccurrences(of: "  ", with: " ") }
        name = String(name.prefix(maximumLength)).trimmingCharacters(in: .whitespaces)
        if RemoteLayout.isDeviceID(name.lowercased()) { name = "device-" + name }
        return name.isEmpty ? fallback : name
    }

    /// `text` with every character a name may not hold written out as its
    /// code point (`laptop<U+3164>`): how a name that did not come through
    /// `validated` (another device's, or one an older authcat kept) is shown.
    public static func escaped(_ text: String) -> String {
        var shown = ""
        for character in text {
            var marks = 0
            for (index, scalar) in character.unicodeScalars.enumerated() {
                let unsupported = isMark(scalar) && isUnsupported(markNumber: &marks, at: index, in: character)
                if kind(of: scalar) == .shown, !unsupported {
                    shown.unicodeScalars.append(scalar)
                } else {
                    shown += "<\(codePoint(scalar))>"
                }
            }
        }
        return shown
    }

    /// What two names that look alike have in common, so that a name is
    /// refused or made unique when it is only another device's in disguise.
    ///
    /// Two names with one skeleton are taken for the same name. The skeleton
    /// is the name after, in order: compatibility forms (NFKC: full-width
    /// letters, ligatures, mathematical and circled letters, superscripts);
    /// canonical decomposition with every combining mark dropped (accents:
    /// `büro` is `buro`); invisible characters dropped and white space made
    /// one plain space; the letters of other scripts that look Latin mapped to
    /// them (`lookalikes`: Cyrillic and Greek capitals and small letters such
    /// as `а`, `е`, `о`, `р`, `с`, `Α`, `Ι`, `Ο`), and the digits and letters
    /// that pass for one another (`0` for `O`; `1`, `I` and `|` for `l`; `ı`
    /// for `i`); lowercase. It does not cover letter pairs that pass for one
    /// letter (`rn` for `m`), nor lookalikes from other scripts (Armenian,
    /// Cherokee, ...): those names stay apart, always shown with their ids.
    public static func skeleton(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        var afterSpace = true
        for scalar in name.precomposedStringWithCompatibilityMapping.decomposedStringWithCanonicalMapping
            .unicodeScalars
        {
            if scalar.properties.isWhitespace {
                if !afterSpace { scalars.append(" ") }
                afterSpace = true
                continue
            }
            if isMark(scalar) || kind(of: scalar) != .shown { continue }
            afterSpace = false
            scalars.append(contentsOf: (lookalikes[scalar] ?? Character(scalar)).unicodeScalars)
        }
        return String(scalars).trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Whether `name` and `other` are too alike to tell apart (`skeleton`).
    public static func isConfusable(_ name: String, with other: String) -> Bool {
        name == other || skeleton(name) == skeleton(other)
    }

    /// `name`, or the first of `name-2`, `name-3`… that no name in `taken`
    /// uses or looks like (`skeleton`), cut so that it stays within the bound.
    public static func unique(_ name: String, avoiding taken: Set<String>) -> String {
        let skeletons = Set(taken.map(skeleton))
        func isFree(_ candidate: String) -> Bool {
            !taken.contains(candidate) && !skeletons.contains(skeleton(candidate))
        }
        guard !isFree(name) else { return name }
        var number = 2
        while true {
            let suffix = "-\(number)"
            let candidate = String(name.prefix(maximumLength - suffix.count)) + suffix
            if isFree(candidate) { return candidate }
            number += 1
        }
    }

    // MARK: - Characters

    /// What a code point is to a name.
    private enum Kind {
        case shown, control, unassigned, invisible
    }

    private static func kind(of scalar: Unicode.Scalar) -> Kind {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate: return .control
        case .privateUse, .unassigned: return .unassigned
        case .spaceSeparator: return scalar == " " ? .shown : .invisible
        default: break
        }
        if properties.isNoncharacterCodePoint { return .unassigned }
        if properties.isDefaultIgnorableCodePoint || properties.isVariationSelector || properties.isWhitespace
            || drawsNothing(scalar)
        {
            return .invisible
        }
        return .shown
    }

    /// Characters that are not white space or default-ignorable in Unicode,
    /// yet draw nothing: Unicode has no property for them, so their names
    /// say it (the braille blank, every filler, the null notehead, and the
    /// object replacement character, which stands for something not there).
    private static func drawsNothing(_ scalar: Unicode.Scalar) -> Bool {
        guard let name = scalar.properties.name else { return false }
        return name.hasSuffix(" BLANK") || name.contains("FILLER") || name.hasSuffix("NULL NOTEHEAD")
            || name == "OBJECT REPLACEMENT CHARACTER"
    }

    /// Combining marks that draw on the character before them (nonspacing
    /// and enclosing; spacing marks take room of their own).
    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: true
        default: false
        }
    }

    /// The first combining mark with no letter to carry it, or one too many
    /// on one character.
    private static func unsupportedMark(in text: String) -> Unicode.Scalar? {
        for character in text {
            var marks = 0
            for (index, scalar) in character.unicodeScalars.enumerated() where isMark(scalar) {
                if isUnsupported(markNumber: &marks, at: index, in: character) { return scalar }
            }
        }
        return nil
    }

    /// Whether the mark at `index` of `character` has nothing to carry it
    /// (it comes first, or after a space), or is one too many; counts it.
    private static func isUnsupported(markNumber marks: inout Int, at index: Int, in character: Character) -> Bool {
        marks += 1
        return index == 0 || marks > maximumMarks || character.unicodeScalars.first == " "
    }

    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Letters of the Cyrillic and Greek scripts that look like a Latin
    /// letter, and the digits and Latin letters that pass for one another,
    /// with the letter each is taken for (mapped before lowercasing, so a
    /// capital maps to what it looks like, and its small letter only when
    /// that looks Latin too).
    private static let lookalikes: [Unicode.Scalar: Character] = [
        // Cyrillic capitals and small letters.
        "\u{0410}": "A", "\u{0412}": "B", "\u{0415}": "E", "\u{041A}": "K", "\u{041C}": "M", "\u{041D}": "H",
        "\u{041E}": "O", "\u{0420}": "P", "\u{0421}": "C", "\u{0422}": "T", "\u{0423}": "Y", "\u{0425}": "X",
        "\u{0405}": "S", "\u{0406}": "l", "\u{0408}": "J", "\u{04AE}": "Y", "\u{051A}": "Q", "\u{051C}": "W",
        "\u{04C0}": "l", "\u{0430}": "a", "\u{0435}": "e", "\u{043E}": "o", "\u{0440}": "p", "\u{0441}": "c",
        "\u{0443}": "y", "\u{0445}": "x", "\u{0455}": "s", "\u{0456}": "i", "\u{0458}": "j", "\u{04BB}": "h",
        "\u{0501}": "d", "\u{051B}": "q", "\u{051D}": "w", "\u{04AF}": "y", "\u{04CF}": "l",
        // Greek capitals and small letters.
        "\u{0391}": "A", "\u{0392}": "B", "\u{0395}": "E", "\u{0396}": "Z", "\u{0397}": "H", "\u{0399}": "l",
        "\u{039A}": "K", "\u{039C}": "M", "\u{039D}": "N", "\u{039F}": "O", "\u{03A1}": "P", "\u{03A4}": "T",
        "\u{03A5}": "Y", "\u{03A7}": "X", "\u{03BF}": "o", "\u{03BD}": "v", "\u{03B9}": "i", "\u{03BA}": "k",
        "\u{03C1}": "p", "\u{03C5}": "u", "\u{03C7}": "x", "\u{03B1}": "a", "\u{03B3}": "y", "\u{03F2}": "c",
        "\u{03F3}": "j",
        // Digits and Latin letters that pass for one another.
        "0": "O", "1": "l", "I": "l", "|": "l", "\u{0131}": "i",
    ]
}
