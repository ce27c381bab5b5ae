import Foundation

/// A `java.util.HashMap<String, String>` written by Java's
/// `ObjectOutputStream`, as FreeOTP 2 writes its backup. Only that shape is
/// read, by the stream protocol's grammar (Java Object Serialization
/// Specification, chapter 6): the magic and version, one object of class
/// `java.util.HashMap` with its primitive fields (`loadFactor`, `threshold`),
/// a block with the capacity and size, then size pairs of strings (or
/// references to earlier ones, or null).
///
/// Nothing read is trusted: every length is checked against the bytes left
/// before it is used, a map claims no more pairs than its bytes can hold, and
/// no class is ever loaded or named back to the user.
struct JavaSerializedStringMap {
    /// The pairs, in stream order (which for a HashMap is its bucket order).
    let pairs: [(key: String, value: String?)]

    static let magic: [UInt8] = [0xAC, 0xED, 0x00, 0x05]

    /// Why a stream is not a serialized map of strings; one clause.
    struct Failure: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    fileprivate enum Code {
        static let null: UInt8 = 0x70
        static let reference: UInt8 = 0x71
        static let classDescription: UInt8 = 0x72
        static let object: UInt8 = 0x73
        static let string: UInt8 = 0x74
        static let blockData: UInt8 = 0x77
        static let endBlockData: UInt8 = 0x78
        static let longString: UInt8 = 0x7C
    }

    /// The first handle a stream assigns.
    fileprivate static let baseHandle: UInt32 = 0x7E_0000

    /// Reads `data`.
    /// - Throws: `Failure`.
    init(_ data: Data) throws {
        var reader = Reader(bytes: [UInt8](data))
        guard reader.bytes.starts(with: Self.magic) else {
            throw Failure(description: "it is not a Java serialized stream")
        }
        reader.position = Self.magic.count
        pairs = try reader.readMap()
    }

    /// The value of `key`, nil when absent or null.
    func value(_ key: String) -> String? {
        pairs.first { $0.key == key }?.value ?? nil
    }

    /// The stream's bytes, as far as read.
    private struct Reader {
        var bytes: [UInt8]
        var position = 0
        /// What each handle names: a string, or nothing this reader keeps (a class, the map).
        var handles: [String?] = []

        mutating func readMap() throws -> [(key: String, value: String?)] {
            guard try byte() == Code.object, try byte() == Code.classDescription else {
                throw Failure(description: "it does not hold an object")
            }
            let className = try utf()
            guard className == "java.util.HashMap" else { throw Failure(description: "it does not hold a HashMap") }
            handles.append(nil)  // the class description
            try skip(8 + 1)  // serialVersionUID, flags
            let fieldCount = try unsigned(2)
            var primitiveBytes = 0
            for _ in 0..<fieldCount {
                let type = try byte()
                _ = try utf()
                guard let size = Self.primitiveSizes[type] else {
                    throw Failure(description: "its map class has a field that is not a primitive")
                }
                primitiveBytes += size
            }
            guard try byte() == Code.endBlockData, try byte() == Code.null else {
                throw Failure(description: "its map class has annotations or a superclass")
            }
            handles.append(nil)  // the map
            try skip(primitiveBytes)
            guard try byte() == Code.blockData, try byte() == 8 else {
                throw Failure(description: "its map has no capacity and size")
            }
            try skip(4)  // the capacity
            let count = try unsigned(4)
            // Each pair takes at least two bytes (two nulls): a larger count is a lie.
            guard count <= UInt64(bytes.count - position) / 2, count <= UInt64(ParsedImport.maximumEntries * 4) else {
                throw Failure(description: "its map claims more pairs than the file holds")
            }
            var pairs: [(key: String, value: String?)] = []
            for _ in 0..<count {
                guard let key = try stringObject() else { throw Failure(description: "a map key is null") }
                pairs.append((key, try stringObject()))
            }
            // The map's own data ends as every class's written data does.
            guard try byte() == Code.endBlockData else { throw Failure(description: "its map does not end") }
            return pairs
        }

        static let primitiveSizes: [UInt8: Int] = [
            UInt8(ascii: "B"): 1, UInt8(ascii: "Z"): 1, UInt8(ascii: "C"): 2, UInt8(ascii: "S"): 2,
            UInt8(ascii: "I"): 4, UInt8(ascii: "F"): 4, UInt8(ascii: "J"): 8, UInt8(ascii: "D"): 8,
        ]

        /// A string, a reference to one read before, or null.
        private mutating func stringObject() throws -> String? {
            switch try byte() {
            case Code.null:
                return nil
            case Code.string:
                let text = try utf()
                handles.append(text)
                return text
            case Code.longString:
                let length = try unsigned(8)
                let text = try modifiedUTF8(length: length)
                handles.append(text)
                return text
            case Code.reference:
                let handle = try unsigned(4)
                let base = UInt64(JavaSerializedStringMap.baseHandle)
                guard handle >= base, handle - base < UInt64(handles.count), let text = handles[Int(handle - base)]
                else {
                    throw Failure(description: "a reference points at no string")
                }
                return text
            default:
                throw Failure(description: "the map holds something other than strings")
            }
        }

        private mutating func utf() throws -> String {
            try modifiedUTF8(length: try unsigned(2))
        }

        /// Java's modified UTF-8: UTF-8 of UTF-16 code units, each surrogate on its own, NUL as two bytes.
        private mutating func modifiedUTF8(length: UInt64) throws -> String {
            guard length <= UInt64(bytes.count - position) else { throw truncated }
            let end = position + Int(length)
            var units: [UInt16] = []
            units.reserveCapacity(Int(length))
            while position < end {
                let lead = bytes[position]
                let count = lead < 0x80 ? 1 : lead & 0xE0 == 0xC0 ? 2 : lead & 0xF0 == 0xE0 ? 3 : 0
                guard count > 0, position + count <= end,
                    bytes[(position + 1)..<(position + count)].allSatisfy({ $0 & 0xC0 == 0x80 })
                else {
                    throw Failure(description: "a string is not modified UTF-8")
                }
                var unit = UInt16(count == 1 ? lead : count == 2 ? lead & 0x1F : lead & 0x0F)
                for continuation in bytes[(position + 1)..<(position + count)] {
                    unit = unit << 6 | UInt16(continuation & 0x3F)
                }
                units.append(unit)
                position += count
            }
            return String(decoding: units, as: UTF16.self)
        }

        private var truncated: Failure { Failure(description: "it ends too soon (truncated?)") }

        private mutating func byte() throws -> UInt8 {
            guard position < bytes.count else { throw truncated }
            defer { position += 1 }
            return bytes[position]
        }

        /// A big-endian unsigned number of `size` bytes.
        private mutating func unsigned(_ size: Int) throws -> UInt64 {
            guard size <= bytes.count - position else { throw truncated }
            defer { position += size }
            return bytes[position..<(position + size)].reduce(0) { $0 << 8 | UInt64($1) }
        }

        private mutating func skip(_ count: Int) throws {
            guard count >= 0, count <= bytes.count - position else { throw truncated }
            position += count
        }
    }
}
