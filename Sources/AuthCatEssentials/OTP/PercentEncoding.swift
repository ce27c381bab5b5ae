/// RFC 3986 percent-encoding, as otpauth URIs use it.
///
/// Public so that other layers writing URIs (exports, QR payloads) escape
/// exactly as `OTPAuthURI` does.
public enum PercentEncoding {
    /// `%XX`-escapes every byte except unreserved characters and `@`, so the
    /// result is safe in a path segment and a query value alike (`:`, `&`,
    /// `?`, `#`, `+`, `%`, `/` and spaces are all escaped).
    public static func encode(_ text: String) -> String {
        var output = [UInt8]()
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isKept(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0f)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Undoes `%XX` escapes; with `plusAsSpace`, also reads `+` as a space
    /// (as form encoding and Android's query parser do).
    /// - Returns: `nil` for a malformed escape or bytes that are not UTF-8.
    public static func decode(_ text: Substring, plusAsSpace: Bool) -> String? {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        var output = [UInt8]()
        output.reserveCapacity(text.utf8.count)
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = bytes.next().flatMap(hexValue), let low = bytes.next().flatMap(hexValue) else {
                    return nil
                }
                output.append(high << 4 | low)
            case UInt8(ascii: "+") where plusAsSpace:
                output.append(UInt8(ascii: " "))
            default:
                output.append(byte)
            }
        }
        return String(bytes: output, encoding: .utf8)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "@"):
            true
        default:
            false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
