import AuthCatCore
import AuthCatEssentials
import Foundation

extension StratumFormat {
    /// The HTML export: a page with a row per authenticator, whose link
    /// (`<a href="otpauth://…">`) is its URI. Every `href` holding an
    /// `otpauth://` URI is an entry, named by its place among them.
    static func parseHTML(_ data: Data) throws -> ParsedImport {
        let text = try TextLines.text(of: data, format: format)
        guard text.range(of: "<html", options: .caseInsensitive) != nil else {
            throw ImportError.malformed(format, "it is neither a backup nor an HTML export")
        }
        let uris = links(in: text)
        var result = ParsedImport(format: format)
        try result.checkRoom(forEntries: uris.count)
        for (index, uri) in uris.enumerated() {
            let position = EntryPosition(number: index + 1, description: "link \(index + 1)")
            try result.read(position, label: OTPAuthFormat.label(of: Substring(uri))) {
                try OTPAuthFormat.entry(Substring(uri), position: position)
            }
        }
        guard result.entryCount > 0 else {
            throw ImportError.malformed(format, "its HTML holds no otpauth:// link")
        }
        return result
    }

    /// The `otpauth://` values of `href` attributes, their character references resolved.
    static func links(in html: String) -> [String] {
        // Case-insensitive attribute name; a value in double or single quotes.
        let pattern = #"href\s*=\s*(?:"(otpauth://[^"]*)"|'(otpauth://[^']*)')"#
        guard let expression = try? NSRegularExpression(pattern: pattern, options: .caseInsensitive) else { return [] }
        let whole = NSRange(html.startIndex..., in: html)
        return expression.matches(in: html, range: whole).compactMap { match in
            let range = match.range(at: 1).location != NSNotFound ? match.range(at: 1) : match.range(at: 2)
            return Range(range, in: html).map { unescaped(html[$0]) }
        }
    }

    /// `&amp;`, `&quot;`, `&#39;`, `&#x26;` and the like as the characters they stand for.
    private static func unescaped(_ value: Substring) -> String {
        var output = ""
        var rest = value
        while let ampersand = rest.firstIndex(of: "&") {
            output += rest[..<ampersand]
            rest = rest[ampersand...]
            guard let semicolon = rest.prefix(10).firstIndex(of: ";"),
                let character = character(named: rest[rest.index(after: rest.startIndex)..<semicolon])
            else {
                output.append("&")
                rest = rest.dropFirst()
                continue
            }
            output.append(character)
            rest = rest[rest.index(after: semicolon)...]
        }
        return output + rest
    }

    private static func character(named name: Substring) -> Character? {
        let named: [Substring: Character] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
        if let character = named[name] { return character }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value = digits.lowercased().hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
        return value.flatMap(Unicode.Scalar.init).map(Character.init)
    }
}
