import Foundation

/// A bound on how deeply a JSON document from a file may nest, checked in one
/// linear pass before it is decoded. Decoding recurses once per level (in
/// Foundation and in `JSONValue`), on threads with small stacks, so a file of
/// nothing but `[[[[…` must be refused before it reaches a decoder.
enum JSONNesting {
    /// The deepest nesting accepted: every format authcat reads nests at most
    /// six levels; this leaves room for fields other apps may add.
    static let maximumDepth = 64

    /// Whether `data` nests objects and lists at most `maximumDepth` deep.
    /// Brackets inside strings do not count.
    static func isWithinBound(_ data: Data) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in data {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maximumDepth { return false }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
            default: break
            }
        }
        return true
    }
}
