#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension UUID {
    /// Parses the lowercase or uppercase 8-4-4-4-12 form without Foundation's
    /// `sscanf`-based parser, which dominates reading thousands of accounts.
    /// Falls back to `UUID(uuidString:)` for anything unusual.
    public init?(vaultString text: String) {
        var text = text
        guard let uuid = text.withUTF8(Self.parse) else { return nil }
        self.init(uuid: uuid)
    }

    /// The 16 bytes of the 8-4-4-4-12 hex digits in `text`, or nil.
    private static func parse(_ text: UnsafeBufferPointer<UInt8>) -> uuid_t? {
        guard text.count == 36 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 16)
        var count = 0
        var high: UInt8?
        for offset in 0..<36 {
            let character = text[offset]
            switch offset {
            case 8, 13, 18, 23:
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            default:
                break
            }
            guard let nibble = Self.nibble(character) else { return nil }
            if let first = high {
                bytes[count] = first << 4 | nibble
                count += 1
                high = nil
            } else {
                high = nibble
            }
        }
        return (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        )
    }

    /// Lowercase, as stored in the vault and used as associated data.
    public var vaultString: String {
        withUnsafeBytes(of: uuid) { bytes in
            // 32 hex digits and 4 dashes.
            String(unsafeUninitializedCapacity: 36) { output in
                var written = 0
                for (index, byte) in bytes.enumerated() {
                    switch index {
                    case 4, 6, 8, 10:
                        output[written] = UInt8(ascii: "-")
                        written += 1
                    default:
                        break
                    }
                    output[written] = Self.hexDigits[Int(byte >> 4)]
                    output[written + 1] = Self.hexDigits[Int(byte & 0x0f)]
                    written += 2
                }
                return written
            }
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
