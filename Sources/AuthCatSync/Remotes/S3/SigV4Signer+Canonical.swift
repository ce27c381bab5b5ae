import AuthCatEssentials
import Foundation

/// Building the canonical request and the encodings it uses.
extension SigV4Signer {
    /// The canonical request: method, path, query, headers, signed header names, payload hash.
    static func canonicalRequest(_ request: Request) -> String {
        [
            request.method,
            encode(request.path, keepingSlashes: true),
            queryString(request.query, keepingSlashes: request.querySlashesUnencoded),
            canonicalHeaders(request.headers).map { "\($0.name):\($0.value)\n" }.joined(),
            signedHeaders(request),
            request.payloadHash,
        ].joined(separator: "\n")
    }

    /// The lower-cased, sorted, `;`-joined names of the signed headers.
    static func signedHeaders(_ request: Request) -> String {
        canonicalHeaders(request.headers).map(\.name).joined(separator: ";")
    }

    /// The encoded, sorted query string; also what is sent, so that sent and signed agree.
    static func queryString(_ query: [(name: String, value: String)], keepingSlashes: Bool = false) -> String {
        let encoded: [(name: String, value: String)] = query.map { parameter in
            (encode(parameter.name, keepingSlashes: false), encode(parameter.value, keepingSlashes: keepingSlashes))
        }
        let sorted = encoded.sorted { left, right in
            left.name == right.name ? left.value < right.value : left.name < right.name
        }
        return sorted.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    }

    /// Percent-encodes every byte but the RFC 3986 unreserved ones (and `/` if asked), with upper-case hex.
    static func encode(_ text: String, keepingSlashes: Bool) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "."), UInt8(ascii: "~"):
                result.append(Character(Unicode.Scalar(byte)))
            case UInt8(ascii: "/") where keepingSlashes:
                result.append("/")
            default:
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// Lower-cased names with trimmed values, repeated names joined by commas, sorted by name.
    private static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> [(name: String, value: String)]
    {
        var joined: [String: [String]] = [:]
        for header in headers {
            joined[header.name.lowercased(), default: []].append(trimmed(header.value))
        }
        return joined.keys.sorted().map { ($0, joined[$0, default: []].joined(separator: ",")) }
    }

    /// Trims surrounding whitespace and collapses inner runs of spaces, as SigV4 requires.
    private static func trimmed(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// The `x-amz-date` form of a date: `yyyyMMdd'T'HHmmss'Z'` in UTC.
    static func timestamp(for date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    /// The hex SHA-256 of `data`, as `x-amz-content-sha256` wants it.
    static func payloadHash(_ data: Data) -> String {
        hex(SHA256.hash(data))
    }

    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
