/// A reader for the XML subset S3 replies use: a declaration, comments,
/// elements with attributes, text with the five predefined entities and
/// character references, CDATA. Anything else — a DOCTYPE above all, whose
/// entity definitions are a classic attack — makes the reply unreadable.
struct S3XMLReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The text leaves in document order, or nil if the document is malformed.
    mutating func leaves() -> [S3XMLDocument.Leaf]? {
        var leaves: [S3XMLDocument.Leaf] = []
        var stack: [String] = []
        /// Whether each open element has child elements (and so is no leaf).
        var hasChildren: [Bool] = []
        var text: [UInt8] = []
        var sawRoot = false
        while position < bytes.count {
            if bytes[position] != UInt8(ascii: "<") {
                guard !stack.isEmpty || isSpace(bytes[position]) else { return nil }
                guard readText(into: &text) else { return nil }
                continue
            }
            if starts(with: "<?") || starts(with: "<!--") {
                guard skip(starts(with: "<?") ? "<?" : "<!--", until: starts(with: "<?") ? "?>" : "-->") else { return nil }
                continue
            }
            if starts(with: "<![CDATA[") {
                let start = position + 9
                guard skip("<![CDATA[", until: "]]>"), !stack.isEmpty else { return nil }
                text += bytes[start..<(position - 3)]
                continue
            }
            if starts(with: "<!") { return nil }
            if starts(with: "</") {
                position += 2
                guard let name = readName(), name == stack.last, readPast(">") else { return nil }
                // Only leaves carry text; a container's would be the whitespace between its children.
                if hasChildren.last == false {
                    leaves.append(.init(path: stack.joined(separator: "/"), text: String(decoding: text, as: UTF8.self)))
                }
                stack.removeLast()
                hasChildren.removeLast()
                text = []
                continue
            }
            position += 1
            guard let name = readName(), let selfClosing = readAttributes() else { return nil }
            guard !(stack.isEmpty && sawRoot) else { return nil }
            sawRoot = true
            if !hasChildren.isEmpty { hasChildren[hasChildren.count - 1] = true }
            text = []
            if selfClosing {
                leaves.append(.init(path: (stack + [name]).joined(separator: "/"), text: ""))
            } else {
                stack.append(name)
                hasChildren.append(false)
            }
        }
        return stack.isEmpty && sawRoot ? leaves : nil
    }

    /// An element name without its namespace prefix.
    private mutating func readName() -> String? {
        let start = position
        while position < bytes.count, !isSpace(bytes[position]), !"/>".utf8.contains(bytes[position]) {
            position += 1
        }
        guard position > start else { return nil }
        let name = bytes[start..<position]
        let local = name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name
        return local.isEmpty ? nil : String(decoding: local, as: UTF8.self)
    }

    /// Skips attributes up to the end of a start tag; whether it was `/>`.
    private mutating func readAttributes() -> Bool? {
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
        return nil
    }

    /// Reads character data up to the next `<`, decoding references.
    private mutating func readText(into text: inout [UInt8]) -> Bool {
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") {
            if bytes[position] == UInt8(ascii: "&") {
                guard let end = bytes[position...].firstIndex(of: UInt8(ascii: ";")),
                      let decoded = Self.reference(bytes[(position + 1)..<end]) else { return false }
                text += decoded
                position = end + 1
            } else {
                text.append(bytes[position])
                position += 1
            }
        }
        return true
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

    private func starts(with prefix: String) -> Bool {
        bytes[position...].starts(with: prefix.utf8)
    }

    /// Skips a construct from `open` through `close`, if one starts here.
    private mutating func skip(_ open: String, until close: String) -> Bool {
        guard starts(with: open) else { return false }
        position += open.utf8.count
        while position < bytes.count {
            if starts(with: close) {
                position += close.utf8.count
                return true
            }
            position += 1
        }
        return false
    }

    private mutating func readPast(_ terminator: String) -> Bool {
        while position < bytes.count, isSpace(bytes[position]) { position += 1 }
        guard starts(with: terminator) else { return false }
        position += terminator.utf8.count
        return true
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
