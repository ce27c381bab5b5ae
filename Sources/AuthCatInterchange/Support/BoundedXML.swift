import Foundation

/// A small XML reader for the files other apps export: Android's shared
/// preferences, KeePass 2 XML.
///
/// Not FoundationXML, which would link libxml2 and ICU into every
/// authcat-cli start (see `S3XMLDocument`). It reads elements with their
/// attributes and text: the five predefined entities, character references
/// and CDATA sections decoded; comments and processing instructions skipped.
/// A document type is refused, since its entities are a classic attack
/// (billion laughs, external files). Bounded while reading: the size of the
/// file, how deep elements nest and how many are kept (`Limits`); one pass
/// over the bytes, recursion no deeper than the depth bound. Subtrees named
/// in `skipping` are read for well-formedness but not kept, so that bulky
/// parts a reader never looks at (KeePass's entry history) cost no memory.
struct BoundedXML {
    /// One element: its name, attributes, own text and child elements.
    struct Element {
        var name: String
        var attributes: [String: String] = [:]
        /// The element's character data, outside its children, entities decoded.
        var text = ""
        var children: [Element] = []

        /// The first child called `name`.
        func child(_ name: String) -> Element? {
            children.first { $0.name == name }
        }

        /// The children called `name`.
        func children(_ name: String) -> [Element] {
            children.filter { $0.name == name }
        }
    }

    struct Limits {
        var maximumBytes: Int
        var maximumDepth: Int
        /// Kept elements, those in skipped subtrees not counted.
        var maximumElements: Int
    }

    /// Why a file is not XML this reader reads; one clause.
    enum Failure: Error, Equatable, CustomStringConvertible {
        case notWellFormed
        case documentType
        case tooLarge(Int)
        case tooDeep(Int)
        case tooManyElements(Int)

        var description: String {
            switch self {
            case .notWellFormed: "it is not well-formed XML (truncated or damaged?)"
            case .documentType: "it declares a document type, which authcat does not read"
            case .tooLarge(let bytes): "it is larger than \(bytes / (1 << 20)) MiB"
            case .tooDeep(let depth): "its elements nest more than \(depth) deep"
            case .tooManyElements(let count): "it has more than \(count) elements"
            }
        }
    }

    /// The document's one top-level element.
    let root: Element

    /// Reads `data`.
    /// - Throws: `Failure`.
    init(_ data: Data, limits: Limits, skipping: Set<String> = []) throws {
        guard data.count <= limits.maximumBytes else { throw Failure.tooLarge(limits.maximumBytes) }
        var reader = Reader(bytes: [UInt8](data), limits: limits, skipping: skipping)
        root = try reader.document()
    }

    /// The name of the top-level element of `data`, read from its first
    /// kilobytes (after an XML declaration, comments and processing
    /// instructions); nil when they do not start an element.
    static func rootName(of data: Data) -> String? {
        let head = data.prefix(16 << 10)
        var reader = Reader(
            bytes: [UInt8](head), limits: Limits(maximumBytes: head.count, maximumDepth: 1, maximumElements: 1),
            skipping: [])
        return try? reader.rootName()
    }

    private struct Reader {
        let bytes: [UInt8]
        let limits: Limits
        let skipping: Set<String>
        var position = 0
        var elements = 0

        init(bytes: [UInt8], limits: Limits, skipping: Set<String>) {
            self.bytes = bytes
            self.limits = limits
            self.skipping = skipping
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        }

        mutating func document() throws -> Element {
            try skipMisc()
            guard starts("<"), let root = try element(depth: 1, kept: true) else { throw Failure.notWellFormed }
            try skipMisc()
            guard position == bytes.count else { throw Failure.notWellFormed }
            return root
        }

        mutating func rootName() throws -> String {
            try skipMisc()
            guard starts("<") else { throw Failure.notWellFormed }
            position += 1
            return try name()
        }

        /// The element that starts at `position`; nil when not `kept`.
        private mutating func element(depth: Int, kept: Bool) throws -> Element? {
            guard depth <= limits.maximumDepth else { throw Failure.tooDeep(limits.maximumDepth) }
            position += 1
            var element = Element(name: try name())
            let kept = kept && !skipping.contains(element.name)
            if kept {
                elements += 1
                guard elements <= limits.maximumElements else { throw Failure.tooManyElements(limits.maximumElements) }
            }
            guard try attributes(into: &element.attributes) else { return kept ? element : nil }
            while true {
                let text = try self.text()
                if kept { element.text += text }
                if starts("</") { break }
                if starts("<!--") {
                    try skip(past: "-->")
                } else if starts("<![CDATA[") {
                    position += 9
                    let start = position
                    try skip(past: "]]>")
                    let cdata = try utf8(bytes[start..<(position - 3)])
                    if kept { element.text += cdata }
                } else if starts("<?") {
                    try skip(past: "?>")
                } else if starts("<!") {
                    throw Failure.notWellFormed
                } else if let child = try self.element(depth: depth + 1, kept: kept) {
                    element.children.append(child)
                }
            }
            try closeTag(element.name)
            return kept ? element : nil
        }

        /// Reads attributes up to the end of a start tag; whether the element has content (is not `<a/>`).
        private mutating func attributes(into attributes: inout [String: String]) throws -> Bool {
            while true {
                skipSpace()
                if starts("/>") {
                    position += 2
                    return false
                }
                if starts(">") {
                    position += 1
                    return true
                }
                let key = try name()
                skipSpace()
                guard starts("=") else { throw Failure.notWellFormed }
                position += 1
                skipSpace()
                guard position < bytes.count,
                    bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'")
                else { throw Failure.notWellFormed }
                let quote = bytes[position]
                position += 1
                guard let end = bytes[position...].firstIndex(of: quote) else { throw Failure.notWellFormed }
                attributes[key] = try decoded(bytes[position..<end])
                position = end + 1
            }
        }

        private mutating func closeTag(_ name: String) throws {
            position += 2
            guard try self.name() == name else { throw Failure.notWellFormed }
            skipSpace()
            guard starts(">") else { throw Failure.notWellFormed }
            position += 1
        }

        private mutating func name() throws -> String {
            let start = position
            while position < bytes.count, isNameByte(bytes[position]) { position += 1 }
            guard position > start else { throw Failure.notWellFormed }
            return try utf8(bytes[start..<position])
        }

        private func isNameByte(_ byte: UInt8) -> Bool {
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: ":") || byte >= 0x80
        }

        /// Text up to the next `<`, entities decoded.
        private mutating func text() throws -> String {
            let start = position
            guard let end = bytes[position...].firstIndex(of: UInt8(ascii: "<")) else { throw Failure.notWellFormed }
            position = end
            return start == end ? "" : try decoded(bytes[start..<end])
        }

        private func utf8(_ raw: ArraySlice<UInt8>) throws -> String {
            guard let text = String(bytes: raw, encoding: .utf8) else { throw Failure.notWellFormed }
            return text
        }

        /// `raw` with the five predefined entities and character references replaced.
        private func decoded(_ raw: ArraySlice<UInt8>) throws -> String {
            let text = try utf8(raw)
            guard text.contains("&") else { return text }
            var result = ""
            var rest = Substring(text)
            while let ampersand = rest.firstIndex(of: "&") {
                result += rest[..<ampersand]
                guard let semicolon = rest[ampersand...].firstIndex(of: ";") else { throw Failure.notWellFormed }
                result.append(try character(rest[rest.index(after: ampersand)..<semicolon]))
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
                guard let number, number != 0, let scalar = Unicode.Scalar(number) else {
                    throw Failure.notWellFormed
                }
                return Character(scalar)
            }
        }

        /// Blank space, comments and processing instructions (the XML
        /// declaration among them) outside the root; a document type is refused.
        private mutating func skipMisc() throws {
            while true {
                skipSpace()
                if starts("<!--") {
                    try skip(past: "-->")
                } else if starts("<?") {
                    try skip(past: "?>")
                } else if starts("<!DOCTYPE") {
                    throw Failure.documentType
                } else {
                    return
                }
            }
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
            throw Failure.notWellFormed
        }

        private func starts(_ marker: String) -> Bool {
            bytes[position...].starts(with: marker.utf8)
        }
    }
}
