import Foundation

/// Writes an `Encodable` value as the text `JSONOutput` prints: what
/// `JSONEncoder` writes with `.prettyPrinted`, `.sortedKeys`,
/// `.withoutEscapingSlashes` and dates as seconds since 1970 (two spaces a
/// level, `"key" : value`, keys in the order of their UTF-8 bytes, the same
/// string escapes and number texts), but an empty array as `[]`.
///
/// Values are written straight into one buffer as they encode themselves;
/// an object's fields are put in key order when the object is complete.
/// `JSONEncoder` instead builds a tree of boxed values and dictionaries
/// first, which costs five times as much for 10,000 accounts.
///
/// What `JSONEncoder` treats specially or this writer does not do (data,
/// URLs, decimals, floats, nested and super encoders, a value that encodes
/// nothing, mixing container kinds) makes `text` return nil, and
/// `JSONOutput` then asks `JSONEncoder`.
final class JSONTextWriter {
    // Unchecked: one thread writes, and no access to these outlives the
    // statement that makes it (none is held across a value's `encode(to:)`).
    // Checked, the runtime's bookkeeping of each access cost more than the
    // writing itself: a third of `list --json`.
    @exclusivity(unchecked) private var bytes: [UInt8] = []
    @exclusivity(unchecked) private var unsupported = false
    /// The objects and arrays open now, innermost last.
    @exclusivity(unchecked) private var frames: [Frame] = []

    private struct Frame {
        var isObject: Bool
        /// Where its `{` or `[` is.
        var start: Int
        var depth: Int
        /// Array elements written so far.
        var count = 0
        /// Object fields, each `"key" : value` without indent, in the order written.
        var fields: [Field] = []
    }

    private struct Field {
        var key: String
        var range: Range<Int>
    }

    /// The JSON text of `value`; nil when only `JSONEncoder` can make it.
    static func text<Value: Encodable>(_ value: Value) throws -> String? {
        let writer = JSONTextWriter()
        writer.bytes.reserveCapacity(1 << 16)
        try writer.write(value, depth: 0)
        guard !writer.unsupported else { return nil }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Writes `value` at the current position, `depth` levels in.
    fileprivate func write<T: Encodable>(_ value: T, depth: Int) throws {
        guard !unsupported else { return }
        if T.self == Date.self, let date = value as? Date {
            writeReal(date.timeIntervalSince1970)
            return
        }
        // Types JSONEncoder encodes its own way.
        if T.self == Data.self || T.self == URL.self || T.self == Decimal.self || T.self == Float.self {
            unsupported = true
            return
        }
        let start = bytes.count
        let frameIndex = frames.count
        try value.encode(to: ValueEncoder(writer: self, depth: depth, frameIndex: frameIndex, start: start))
        if frames.count == frameIndex + 1 {
            close(frames.removeLast())
        } else if frames.count != frameIndex || bytes.count == start {
            unsupported = true
        }
    }

    // MARK: Containers

    fileprivate func openObject(depth: Int, frameIndex: Int, start: Int) {
        if frames.count == frameIndex + 1, frames[frameIndex].isObject { return }  // asked again for the same value
        guard frames.count == frameIndex, bytes.count == start else {
            unsupported = true
            return
        }
        bytes.append(UInt8(ascii: "{"))
        var frame = Frame(isObject: true, start: start, depth: depth)
        frame.fields.reserveCapacity(16)  // one allocation rather than five for a typical object
        frames.append(frame)
    }

    fileprivate func openArray(depth: Int, frameIndex: Int, start: Int) {
        if frames.count == frameIndex + 1, !frames[frameIndex].isObject { return }
        guard frames.count == frameIndex, bytes.count == start else {
            unsupported = true
            return
        }
        bytes.append(UInt8(ascii: "["))
        frames.append(Frame(isObject: false, start: start, depth: depth))
    }

    /// Writes one field of the object `frameIndex`: the key, then what `value` writes.
    fileprivate func field(_ key: String, frameIndex: Int, _ value: () throws -> Void) rethrows {
        guard !unsupported, frames.count == frameIndex + 1, frames[frameIndex].isObject else {
            unsupported = true
            return
        }
        let start = bytes.count
        writeString(key)
        bytes += " : ".utf8
        try value()
        frames[frameIndex].fields.append(Field(key: key, range: start..<bytes.count))
    }

    /// Writes one element of the array `frameIndex`: its separator and indent, then what `value` writes.
    fileprivate func element(frameIndex: Int, _ value: () throws -> Void) rethrows {
        guard !unsupported, frames.count == frameIndex + 1, !frames[frameIndex].isObject else {
            unsupported = true
            return
        }
        if frames[frameIndex].count > 0 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(0x0A)
        writeIndent(frames[frameIndex].depth + 1)
        frames[frameIndex].count += 1
        try value()
    }

    fileprivate func elementCount(frameIndex: Int) -> Int {
        frames.count > frameIndex ? frames[frameIndex].count : 0
    }

    private func close(_ frame: Frame) {
        guard frame.isObject else {
            if frame.count > 0 {
                bytes.append(0x0A)
                writeIndent(frame.depth)
            }
            bytes.append(UInt8(ascii: "]"))
            return
        }
        let order = fieldOrder(frame.fields)
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: bytes[(frame.start + 1)...])
        let offset = frame.start + 1
        bytes.removeSubrange((frame.start + 1)...)
        bytes.append(0x0A)
        for (position, index) in order.enumerated() {
            if position > 0 { bytes += ",\n".utf8 }
            writeIndent(frame.depth + 1)
            let range = frame.fields[index].range
            bytes += scratch[(range.lowerBound - offset)..<(range.upperBound - offset)]
        }
        bytes.append(0x0A)
        writeIndent(frame.depth)
        bytes.append(UInt8(ascii: "}"))
    }

    /// An object's fields as written, while they are put in order.
    @exclusivity(unchecked) private var scratch: [UInt8] = []

    /// The last object's keys in the order written, and the order to write its fields in.
    @exclusivity(unchecked) private var lastKeys: [String] = []
    @exclusivity(unchecked) private var lastOrder: [Int] = []

    /// The positions of `fields` in the order of their keys' UTF-8 bytes; a
    /// key set twice keeps its last value, as in JSONEncoder's dictionary.
    /// Objects of one type come with the same keys in the same order, so the
    /// order found for the last object is tried first.
    private func fieldOrder(_ fields: [Field]) -> [Int] {
        if fields.count == lastKeys.count, fields.indices.allSatisfy({ fields[$0].key == lastKeys[$0] }) {
            return lastOrder
        }
        var order: [Int] = []
        for index in fields.indices.reversed() where !order.contains(where: { fields[$0].key == fields[index].key }) {
            order.append(index)
        }
        order.sort { Self.precedes(fields[$0].key, fields[$1].key) }
        lastKeys = fields.map(\.key)
        lastOrder = order
        return order
    }

    /// Whether `a` comes before `b` in the order of their UTF-8 bytes.
    private static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    // MARK: Values

    fileprivate func writeNull() {
        bytes += "null".utf8
    }

    fileprivate func writeBool(_ value: Bool) {
        bytes += (value ? "true" : "false").utf8
    }

    fileprivate func writeInteger<Integer: BinaryInteger>(_ value: Integer) {
        bytes += value.description.utf8
    }

    /// As `JSONEncoder` writes a `Double`: its description without a trailing ".0".
    fileprivate func writeReal(_ value: Double) {
        guard value.isFinite else {
            unsupported = true  // JSONEncoder throws its own error
            return
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes += text.utf8
    }

    /// Quotes and backslashes escaped, control characters as `\b \f \n \r \t`
    /// or `\u00XX` (lowercase hex); everything else, slashes included, as is.
    fileprivate func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        defer { bytes.append(UInt8(ascii: "\"")) }
        // Nearly every string needs no escape: one copy, rather than a byte at a time.
        let plain = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == 0x5C }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if plain == true { return }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), 0x5C: bytes += [0x5C, byte]
            case 0x08: bytes += [0x5C, UInt8(ascii: "b")]
            case 0x0C: bytes += [0x5C, UInt8(ascii: "f")]
            case 0x0A: bytes += [0x5C, UInt8(ascii: "n")]
            case 0x0D: bytes += [0x5C, UInt8(ascii: "r")]
            case 0x09: bytes += [0x5C, UInt8(ascii: "t")]
            case 0x00...0x1F: bytes += [0x5C, UInt8(ascii: "u"), 0x30, 0x30, Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0x0F)]]
            default: bytes.append(byte)
            }
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private func writeIndent(_ level: Int) {
        bytes.append(contentsOf: repeatElement(0x20, count: 2 * level))
    }

    fileprivate func giveUp() {
        unsupported = true
    }
}

/// The `Encoder` one value is given: where it goes in the text. Three
/// words, so that `any Encoder` holds it without allocating: one for each
/// value written.
private struct ValueEncoder: Encoder {
    let writer: JSONTextWriter
    private let levels: (depth: Int32, frameIndex: Int32)
    /// Where its text starts.
    let start: Int

    /// How many levels in it is.
    var depth: Int { Int(levels.depth) }
    /// The index its object or array gets among the writer's open frames.
    var frameIndex: Int { Int(levels.frameIndex) }

    init(writer: JSONTextWriter, depth: Int, frameIndex: Int, start: Int) {
        self.writer = writer
        levels = (Int32(truncatingIfNeeded: depth), Int32(truncatingIfNeeded: frameIndex))
        self.start = start
    }

    var codingPath: [CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        writer.openObject(depth: depth, frameIndex: frameIndex, start: start)
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        writer.openArray(depth: depth, frameIndex: frameIndex, start: start)
        return UnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> SingleValueEncodingContainer {
        SingleContainer(encoder: self)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoder
    var codingPath: [CodingKey] { [] }
    private var writer: JSONTextWriter { encoder.writer }

    private func field(_ key: Key, _ value: (JSONTextWriter) throws -> Void) rethrows {
        try writer.field(key.stringValue, frameIndex: encoder.frameIndex) { try value(writer) }
    }

    mutating func encodeNil(forKey key: Key) throws { field(key) { $0.writeNull() } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { field(key) { $0.writeBool(value) } }
    mutating func encode(_ value: String, forKey key: Key) throws { field(key) { $0.writeString(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws { field(key) { $0.writeReal(value) } }
    mutating func encode(_ value: Float, forKey key: Key) throws { field(key) { $0.giveUp() } }
    mutating func encode(_ value: Int, forKey key: Key) throws { field(key) { $0.writeInteger(value) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { field(key) { $0.writeInteger(value) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { field(key) { $0.writeInteger(value) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { field(key) { $0.writeInteger(value) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { field(key) { $0.writeInteger(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { field(key) { $0.writeInteger(value) } }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { field(key) { $0.writeInteger(value) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { field(key) { $0.writeInteger(value) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { field(key) { $0.writeInteger(value) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { field(key) { $0.writeInteger(value) } }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try field(key) { try $0.write(value, depth: encoder.depth + 1) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        writer.giveUp()
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        writer.giveUp()
        return UnkeyedContainer(encoder: encoder)
    }

    mutating func superEncoder() -> Encoder {
        writer.giveUp()
        return encoder
    }

    mutating func superEncoder(forKey key: Key) -> Encoder {
        writer.giveUp()
        return encoder
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: ValueEncoder
    var codingPath: [CodingKey] { [] }
    var count: Int { writer.elementCount(frameIndex: encoder.frameIndex) }
    private var writer: JSONTextWriter { encoder.writer }

    private func element(_ value: (JSONTextWriter) throws -> Void) rethrows {
        try writer.element(frameIndex: encoder.frameIndex) { try value(writer) }
    }

    mutating func encodeNil() throws { element { $0.writeNull() } }
    mutating func encode(_ value: Bool) throws { element { $0.writeBool(value) } }
    mutating func encode(_ value: String) throws { element { $0.writeString(value) } }
    mutating func encode(_ value: Double) throws { element { $0.writeReal(value) } }
    mutating func encode(_ value: Float) throws { element { $0.giveUp() } }
    mutating func encode(_ value: Int) throws { element { $0.writeInteger(value) } }
    mutating func encode(_ value: Int8) throws { element { $0.writeInteger(value) } }
    mutating func encode(_ value: Int16) throws { element { $0.writeInteger(value) } }
    mutating func encode(_ value: Int32) throws { element { $0.writeInteger(value) } }
    mutating func encode(_ value: Int64) throws { element { $0.writeInteger(value) } }
    mutating func encode(_ value: UInt) throws { element { $0.writeInteger(value) } }
    mutating func encode(_ value: UInt8) throws { element { $0.writeInteger(value) } }
    mutating func encode(_ value: UInt16) throws { element { $0.writeInteger(value) } }
    mutating func encode(_ value: UInt32) throws { element { $0.writeInteger(value) } }
    mutating func encode(_ value: UInt64) throws { element { $0.writeInteger(value) } }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try element { try $0.write(value, depth: encoder.depth + 1) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        writer.giveUp()
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder))
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        writer.giveUp()
        return self
    }

    mutating func superEncoder() -> Encoder {
        writer.giveUp()
        return encoder
    }
}

/// One value written where its encoder points, once.
private struct SingleContainer: SingleValueEncodingContainer {
    let encoder: ValueEncoder
    var codingPath: [CodingKey] { [] }
    private var writer: JSONTextWriter { encoder.writer }

    private func value(_ write: (JSONTextWriter) throws -> Void) rethrows {
        guard writer.isUntouched(encoder) else {
            writer.giveUp()
            return
        }
        try write(writer)
    }

    mutating func encodeNil() throws { value { $0.writeNull() } }
    mutating func encode(_ value: Bool) throws { self.value { $0.writeBool(value) } }
    mutating func encode(_ value: String) throws { self.value { $0.writeString(value) } }
    mutating func encode(_ value: Double) throws { self.value { $0.writeReal(value) } }
    mutating func encode(_ value: Float) throws { self.value { $0.giveUp() } }
    mutating func encode(_ value: Int) throws { self.value { $0.writeInteger(value) } }
    mutating func encode(_ value: Int8) throws { self.value { $0.writeInteger(value) } }
    mutating func encode(_ value: Int16) throws { self.value { $0.writeInteger(value) } }
    mutating func encode(_ value: Int32) throws { self.value { $0.writeInteger(value) } }
    mutating func encode(_ value: Int64) throws { self.value { $0.writeInteger(value) } }
    mutating func encode(_ value: UInt) throws { self.value { $0.writeInteger(value) } }
    mutating func encode(_ value: UInt8) throws { self.value { $0.writeInteger(value) } }
    mutating func encode(_ value: UInt16) throws { self.value { $0.writeInteger(value) } }
    mutating func encode(_ value: UInt32) throws { self.value { $0.writeInteger(value) } }
    mutating func encode(_ value: UInt64) throws { self.value { $0.writeInteger(value) } }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try self.value { try $0.write(value, depth: encoder.depth) }
    }
}

extension JSONTextWriter {
    /// Whether nothing has been written yet for the value `encoder` stands for.
    fileprivate func isUntouched(_ encoder: ValueEncoder) -> Bool {
        frames.count == encoder.frameIndex && bytes.count == encoder.start
    }
}
