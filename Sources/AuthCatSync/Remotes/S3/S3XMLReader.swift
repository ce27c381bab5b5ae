/// A reader for the XML subset S3 replies use: a declaration, comments,
/// elements with attributes, text with the five predefined entities and
/// character references, CDATA. Anything else — a DOCTYPE above all, whose
/// entity definitions are a classic attack — makes the reply unreadable.
///
/// The server is not trusted, so reading is bounded: one pass over the bytes
/// (the path to the current element is kept, not rebuilt for each leaf), at
/// most `maximumDepth` levels of elements, `maximumElements` elements and
/// `maximumNameLength` bytes per element name, only the leaves the caller
/// asks for are kept, and the caller's deadline stops a read that runs past it.
struct S3XMLReader {
    /// Deeper than any S3 reply (`ListBucketResult/Contents/Owner/ID` is four).
    static let maximumDepth = 16
    /// A list page asks for at most 1,000 objects of about a dozen elements each.
    /// (A WebDAV listing, one folder in one reply, passes a bound of its own.)
    static let maximumElements = 25_000
    /// Far longer than any S3 element name (`NextContinuationToken` is 21).
    static let maximumNameLength = 128
    /// How many steps run between two looks at the clock.
    private static let stepsPerDeadlineCheck = 1_024

    /// Why a document was not read; the description is one lower-case clause.
    enum Failure: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        /// Well-formed, but not the reply expected; the reason says what is wrong.
        case unexpected(String)
        case tooDeep
        case tooManyElements
        case deadlineExceeded

        var description: String {
            switch self {
            case .malformed(let reason): "it is not well-formed XML (\(reason))"
            case .unexpected(let reason): reason
            case .tooDeep: "its elements nest more than \(S3XMLReader.maximumDepth) deep"
            case .tooManyElements: "it holds more than \(S3XMLReader.maximumElements) elements"
            case .deadlineExceeded: "reading it took longer than the request's deadline"
            }
        }
    }

    private let bytes: [UInt8]
    /// The paths whose leaves are kept, each with the string it is reported as.
    private let wanted: [[UInt8]: String]?
    private let deadline: ContinuousClock.Instant?
    private let elementLimit: Int
    private var position = 0
    /// The path of the open elements, names joined by `/`.
    private var path: [UInt8] = []
    /// Where each open element's part of `path` starts, its `/` included.
    private var openings: [Int] = []
    private var text: [UInt8] = []
    /// Whether the innermost open element has child elements (and so is no leaf).
    private var hasChildren = false
    private var elements = 0
    private var steps = 0
    private var root: String?
    private var leaves: [S3XMLDocument.Leaf] = []

    /// - Parameters:
    ///   - wanted: the paths (`ListBucketResult/Contents/Key`) whose leaves to
    ///     keep; `nil` keeps every leaf (tests).
    ///   - deadline: when to give up; `nil` for none (tests).
    ///   - maximumElements: the most elements the document may hold.
    init(
        _ bytes: [UInt8], wanted: Set<String>?, deadline: ContinuousClock.Instant?,
        maximumElements: Int = S3XMLReader.maximumElements
    ) {
        self.bytes = bytes
        elementLimit = maximumElements
        self.wanted = wanted.map { Dictionary(uniqueKeysWithValues: $0.map { (Array($0.utf8), $0) }) }
        self.deadline = deadline
    }

    /// The root element's name and the wanted text leaves in document order.
    mutating func read() throws -> (root: String, leaves: [S3XMLDocument.Leaf]) {
        while position < bytes.count {
            try step()
        }
        guard openings.isEmpty, let root else {
            throw Failure.malformed(root == nil ? "no element" : "an element is not closed")
        }
        return (root, leaves)
    }

    /// Reads one construct: text, a comment, a declaration, CDATA, a start or an end tag.
    private mutating func step() throws {
        steps += 1
        if steps % Self.stepsPerDeadlineCheck == 0, let deadline, ContinuousClock.now >= deadline {
            throw Failure.deadlineExceeded
        }
        if bytes[position] != UInt8(ascii: "<") { return try readText() }
        if starts(with: "<?") { return try skip("<?", through: "?>") }
        if starts(with: "<!--") { return try skip("<!--", through: "-->") }
        if starts(with: "<![CDATA[") {
            guard !openings.isEmpty else { throw Failure.malformed("CDATA outside the root element") }
            let start = position + 9
            try skip("<![CDATA[", through: "]]>")
            text += bytes[start..<(position - 3)]
            return
        }
        if starts(with: "<!") { throw Failure.malformed("a DOCTYPE or other declaration") }
        if starts(with: "</") {
            position += 2
            return try close()
        }
        position += 1
        try open()
    }

    private mutating func open() throws {
        let name = try readName()
        let selfClosing = try readAttributes()
        guard root == nil || !openings.isEmpty else { throw Failure.malformed("a second root element") }
        elements += 1
        guard elements <= elementLimit else { throw Failure.tooManyElements }
        guard openings.count < Self.maximumDepth else { throw Failure.tooDeep }
        if root == nil { root = String(decoding: name, as: UTF8.self) }
        openings.append(path.count)
        if path.count > 0 { path.append(UInt8(ascii: "/")) }
        path += name
        hasChildren = false
        text = []
        if selfClosing { endElement() }
    }

    private mutating func close() throws {
        let name = try readName()
        while position < bytes.count, isSpace(bytes[position]) { position += 1 }
        guard let start = openings.last, position < bytes.count, bytes[position] == UInt8(ascii: ">") else {
            throw Failure.malformed("an end tag without its element")
        }
        position += 1
        guard path[(start + (start > 0 ? 1 : 0))...].elementsEqual(name) else {
            throw Failure.malformed("an end tag that does not match its start tag")
        }
        endElement()
    }

    /// Closes the innermost element: a leaf (no child elements) keeps its text if its path is wanted.
    private mutating func endElement() {
        // Only leaves carry text; a container's would be the whitespace between its children.
        let shown: String? = if let wanted { wanted[path] } else { String(decoding: path, as: UTF8.self) }
        if !hasChildren, let shown {
            leaves.append(.init(path: shown, text: String(decoding: text, as: UTF8.self)))
        }
        path.removeSubrange(openings.removeLast()...)
        // The element just closed is a child of the one now innermost.
        hasChildren = true
        text = []
    }

    /// An element name without its namespace prefix.
    private mutating func readName() throws -> ArraySlice<UInt8> {
        let start = position
        while position < bytes.count, !isSpace(bytes[position]), !"/>".utf8.contains(bytes[position]) {
            position += 1
            guard position - start <= Self.maximumNameLength else {
                throw Failure.malformed("an element name longer than \(Self.maximumNameLength) bytes")
            }
        }
        let name = bytes[start..<position]
        let local = name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name
        guard !local.isEmpty else { throw Failure.malformed("an element without a name") }
        return local
    }

    /// Skips attributes up to the end of a start tag; whether it was `/>`.
    private mutating func readAttributes() throws -> Bool {
        var quote: UInt8?
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return bytes[position - 2] == UInt8(ascii: "/")
            }
        }
        throw Failure.malformed("a start tag that does not end")
    }

    /// Reads character data up to the next `<`, decoding references.
    private mutating func readText() throws {
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") {
            let byte = bytes[position]
            guard !openings.isEmpty || isSpace(byte) else { throw Failure.malformed("text outside the root element") }
            if byte == UInt8(ascii: "&") {
                // The longest reference is `&#x10FFFF;`: look no further for its end.
                let window = bytes[(position + 1)..<min(bytes.count, position + 12)]
                guard let end = window.firstIndex(of: UInt8(ascii: ";")),
                    let decoded = Self.reference(bytes[(position + 1)..<end])
                else {
                    throw Failure.malformed("an unknown entity or character reference")
                }
                text += decoded
                position = end + 1
            } else {
                text.append(byte)
                position += 1
            }
        }
    }

    private static func reference(_ name: ArraySlice<UInt8>) -> [UInt8]? {
        switch String(decoding: name, as: UTF8.self) {
        case "lt": return Array("<".utf8)
        case "gt": return Array(">".utf8)
        case "amp": return Array("&".utf8)
        case "quot": return Array("\"".utf8)
        case "apos": return Array("'".utf8)
        case let number where number.hasPrefix("#x"):
            return UInt32(number.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { Array(String($0).utf8) }
        case let number where number.hasPrefix("#"):
            return UInt32(number.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init).map { Array(String($0).utf8) }
        default: return nil
        }
    }

    private func starts(with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        return prefix.withUTF8Buffer { bytes[position..<(position + count)].elementsEqual($0) }
    }

    /// Skips a construct from `open` through `close`.
    private mutating func skip(_ open: StaticString, through close: StaticString) throws {
        position += open.utf8CodeUnitCount
        while position < bytes.count {
            if starts(with: close) {
                position += close.utf8CodeUnitCount
                return
            }
            position += 1
        }
        throw Failure.malformed("a comment, declaration or CDATA section that does not end")
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
