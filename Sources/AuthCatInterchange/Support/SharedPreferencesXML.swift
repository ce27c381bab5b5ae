import Foundation

/// An Android app's shared preferences file (`shared_prefs/NAME.xml`), the
/// form FreeOTP, Authy and Battle.net keep their
/// accounts in: `<map>` holding `<string name="…">text</string>` and
/// `<int|long|boolean|float name="…" value="…"/>` (and `<set>`s of strings,
/// kept with no value), in file order.
///
/// Read by a reader for the subset Android writes rather than by
/// FoundationXML, which would link libxml2 and ICU into every authcat-cli
/// start (see `S3XMLDocument`): an XML declaration, comments, elements with
/// attributes, text with the five predefined entities and character
/// references. A document type (whose entities are a classic attack), CDATA
/// or processing instructions make the file unreadable. Bounded: elements
/// nest at most three deep (a `<set>`'s strings in `<map>`), by the grammar
/// read, and number at most `maximumElements`; one pass over the bytes.
struct SharedPreferencesXML {
    struct Item: Equatable {
        /// `string`, `int`, `long`, `boolean`, `float` or `set`.
        var kind: String
        var name: String
        /// A `<string>`'s text or the `value` attribute.
        var value: String
    }

    /// The items, in file order.
    let items: [Item]

    /// Far more than the preferences of any authenticator with `ParsedImport.maximumEntries` accounts.
    static let maximumElements = 2 * ParsedImport.maximumEntries + 16

    /// Why a file is not a shared preferences file; one clause.
    enum Failure: Error, Equatable, CustomStringConvertible {
        case notXML
        case notAMap
        case beyondBounds

        var description: String {
            switch self {
            case .notXML: "it is not the XML Android writes (truncated or damaged?)"
            case .notAMap: "it is not Android shared preferences (no <map> of named values)"
            case .beyondBounds:
                "it has more than \(SharedPreferencesXML.maximumElements) elements"
            }
        }
    }

    /// Reads `data`.
    /// - Throws: `Failure`.
    init(_ data: Data) throws {
        var reader = Reader(bytes: [UInt8](data))
        items = try reader.read()
    }

    /// Reads `data` as the preferences of an app of `format`.
    /// - Throws: `ImportError.malformed` naming `format`.
    static func read(_ data: Data, format: ImportFormat) throws -> SharedPreferencesXML {
        do {
            return try SharedPreferencesXML(data)
        } catch let failure as Failure {
            throw ImportError.malformed(format, failure.description)
        }
    }

    /// The value of the first item called `name`.
    func value(_ name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    /// Whether `data` starts like shared preferences: an XML declaration or a `<map>`.
    static func looksLike(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(256), as: UTF8.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        return head.hasPrefix("<?xml") || head.hasPrefix("<map")
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0
        var elements = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        }

        mutating func read() throws -> [Item] {
            skipSpace()
            if starts("<?xml") { try skip(past: "?>") }
            try skipMisc()
            guard let map = try openTag(), map.name == "map" else { throw Failure.notAMap }
            var items: [Item] = []
            if !map.empty {
                while true {
                    try skipMisc()
                    if starts("</") { break }
                    items.append(try item())
                }
                try closeTag("map")
            }
            try skipMisc()
            guard position == bytes.count else { throw Failure.notXML }
            return items
        }

        /// One child of `<map>`, with its text when it has some.
        private mutating func item() throws -> Item {
            guard let tag = try openTag() else { throw Failure.notXML }
            var item = Item(kind: tag.name, name: tag.attributes["name"] ?? "", value: tag.attributes["value"] ?? "")
            guard !tag.empty else { return item }
            var text = ""
            while true {
                text += try self.text()
                if starts("</") { break }
                if starts("<!--") {
                    try skip(past: "-->")
                    continue
                }
                // A `<set>`'s strings: read, bounded, not kept.
                guard let inner = try openTag() else { throw Failure.notXML }
                if !inner.empty {
                    _ = try self.text()
                    try closeTag(inner.name)
                }
            }
            try closeTag(tag.name)
            if tag.name == "string" { item.value = text }
            return item
        }

        private mutating func openTag() throws -> (name: String, attributes: [String: String], empty: Bool)? {
            guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else { return nil }
            elements += 1
            guard elements <= SharedPreferencesXML.maximumElements else { throw Failure.beyondBounds }
            position += 1
            let name = try self.name()
            var attributes: [String: String] = [:]
            while true {
                skipSpace()
                if starts("/>") {
                    position += 2
                    return (name, attributes, true)
                }
                if starts(">") {
                    position += 1
                    return (name, attributes, false)
                }
                let key = try self.name()
                skipSpace()
                guard starts("=") else { throw Failure.notXML }
                position += 1
                skipSpace()
                guard position < bytes.count,
                    let quote = [UInt8(ascii: "\""), UInt8(ascii: "'")].first(where: { $0 == bytes[position] })
                else { throw Failure.notXML }
                position += 1
                guard let end = bytes[position...].firstIndex(of: quote) else { throw Failure.notXML }
                attributes[key] = try decoded(bytes[position..<end])
                position = end + 1
            }
        }

        private mutating func closeTag(_ name: String) throws {
            guard starts("</") else { throw Failure.notXML }
            position += 2
            guard try self.name() == name else { throw Failure.notXML }
            skipSpace()
            guard starts(">") else { throw Failure.notXML }
            position += 1
        }

        private mutating func name() throws -> String {
            let start = position
            while position < bytes.count, isNameByte(bytes[position]) { position += 1 }
            guard position > start else { throw Failure.notXML }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        private func isNameByte(_ byte: UInt8) -> Bool {
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: ":") || byte >= 0x80
        }

        /// Text up to the next `<`, entities decoded.
        private mutating func text() throws -> String {
            let start = position
            guard let end = bytes[position...].firstIndex(of: UInt8(ascii: "<")) else { throw Failure.notXML }
            position = end
            return try decoded(bytes[start..<end])
        }

        /// `raw` with the five predefined entities and character references replaced.
        private func decoded(_ raw: ArraySlice<UInt8>) throws -> String {
            guard let text = String(bytes: raw, encoding: .utf8) else { throw Failure.notXML }
            guard text.contains("&") else { return text }
            var result = ""
            var rest = Substring(text)
            while let ampersand = rest.firstIndex(of: "&") {
                result += rest[..<ampersand]
                guard let semicolon = rest[ampersand...].firstIndex(of: ";") else { throw Failure.notXML }
                let entity = rest[rest.index(after: ampersand)..<semicolon]
                result.append(try character(entity))
                rest = rest[rest.index(after: semicolon)...]
            }
            return result + rest
        }

        private func character(_ entity: Substring) throws -> Character {
            switch entity {
            case "quot": return "\""
            case "amp": return "&"
            case "lt": return "<"
            case "gt": return ">"
            case "apos": return "'"
            default:
                let number =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16)
                    : entity.hasPrefix("#") ? UInt32(entity.dropFirst(), radix: 10) : nil
                guard let number, let scalar = Unicode.Scalar(number) else { throw Failure.notXML }
                return Character(scalar)
            }
        }

        /// Blank space and comments; a document type, CDATA or a processing instruction is refused.
        private mutating func skipMisc() throws {
            while true {
                skipSpace()
                guard starts("<!--") else { break }
                try skip(past: "-->")
            }
            if starts("<!") || starts("<?") { throw Failure.notXML }
        }

        private mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        private mutating func skip(past marker: String) throws {
            let marker = Array(marker.utf8)
            while position < bytes.count {
                if bytes[position...].starts(with: marker) {
                    position += marker.count
                    return
                }
                position += 1
            }
            throw Failure.notXML
        }

        private func starts(_ marker: String) -> Bool {
            bytes[position...].starts(with: marker.utf8)
        }
    }
}
