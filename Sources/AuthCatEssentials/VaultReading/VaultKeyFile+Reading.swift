#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reading `vault.key` without `JSONDecoder`, which costs the quick front
/// more than a code does (its keyed containers make the runtime search
/// every protocol conformance of the binary: docs/PERFORMANCE.md, issue 22).
extension VaultKeyFile {
    /// The key file `bytes` hold, when they are in the plain form
    /// `write(to:)` writes (docs/FORMAT.md §2): one object of the known
    /// members, each at most once, strings of printable ASCII whose only
    /// escapes are `\/`, `\\` and `\"`, integers without sign, fraction or
    /// exponent, and `kdf` an object of its four members. Nil for anything
    /// else, which `JSONDecoder` then judges as it always has; so this reader
    /// accepts only what the decoder accepts, with the same values
    /// (VaultKeyFileTests), and refuses nothing the decoder accepted.
    static func plainForm(_ bytes: [UInt8]) -> VaultKeyFile? {
        guard bytes.count <= maximumPlainFormSize else { return nil }
        var scanner = PlainJSONScanner(bytes)
        guard let members = scanner.object(nested: ["kdf"]), scanner.isAtEnd else { return nil }
        return VaultKeyFile(members)
    }

    /// Far more than a key file takes (under 400 bytes with a passphrase); a
    /// longer file is left to the decoder.
    static let maximumPlainFormSize = 4_096

    private init?(_ members: [String: PlainJSONScanner.Value]) {
        let known: Set = ["format", "version", "vault_id", "protection", "key", "kdf", "wrapped_key"]
        guard members.keys.allSatisfy(known.contains), let format = members["format"]?.string,
            let version = members["version"]?.integer.flatMap(Int.init(exactly:)),
            let vaultID = members["vault_id"]?.string,
            let protection = members["protection"]?.string.flatMap(Protection.init(rawValue:))
        else { return nil }
        var key: Data?
        var wrappedKey: Data?
        var kdf: KDFParameters?
        if let value = members["key"] {
            guard let data = value.base64 else { return nil }
            key = data
        }
        if let value = members["wrapped_key"] {
            guard let data = value.base64 else { return nil }
            wrappedKey = data
        }
        if let value = members["kdf"] {
            guard case .object(let parameters) = value, let read = KDFParameters(parameters) else { return nil }
            kdf = read
        }
        self.init(
            format: format, version: version, vaultID: vaultID, protection: protection, key: key, kdf: kdf,
            wrappedKey: wrappedKey)
    }
}

extension KDFParameters {
    fileprivate init?(_ members: [String: PlainJSONScanner.Value]) {
        guard members.count == 4, let algorithm = members["algorithm"]?.string,
            let opsLimit = members["opsLimit"]?.integer, let memLimit = members["memLimit"]?.integer,
            let salt = members["salt"]?.base64
        else { return nil }
        self.init(algorithm: algorithm, opsLimit: opsLimit, memLimit: memLimit, salt: salt)
    }
}

/// The part of JSON that `VaultKeyFile.plainForm` reads; nil at anything else.
private struct PlainJSONScanner {
    enum Value {
        case string(String)
        case integer(UInt64)
        case object([String: Value])

        var string: String? {
            if case .string(let text) = self { text } else { nil }
        }
        var integer: UInt64? {
            if case .integer(let number) = self { number } else { nil }
        }
        /// `Data(base64Encoded:)`, as `JSONDecoder` decodes `Data`.
        var base64: Data? { string.flatMap { Data(base64Encoded: $0) } }
    }

    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool {
        mutating get {
            skipSpace()
            return index == bytes.count
        }
    }

    /// An object whose members are strings and integers, and objects for the
    /// names in `nested` (whose own members are strings and integers); nil
    /// for a name seen twice.
    mutating func object(nested: Set<String> = []) -> [String: Value]? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var members: [String: Value] = [:]
        if take(UInt8(ascii: "}")) { return members }
        repeat {
            guard let name = string(), members[name] == nil, take(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): members[name] = string().map(Value.string)
            case UInt8(ascii: "{") where nested.contains(name): members[name] = object().map(Value.object)
            default: members[name] = integer().map(Value.integer)
            }
            guard members[name] != nil else { return nil }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}")) ? members : nil
    }

    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        var text: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                switch bytes[index] {
                case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "\""): text.append(bytes[index])
                default: return nil
                }
                index += 1
            case 0x20..<0x7F:
                text.append(byte)
            default:
                return nil
            }
        }
        return nil
    }

    /// Digits without a leading zero, ending before anything but a fraction or exponent.
    private mutating func integer() -> UInt64? {
        let start = index
        var value: UInt64 = 0
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            value = sum
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        guard index < bytes.count else { return value }
        switch bytes[index] {
        case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
        default: return value
        }
    }

    /// Skips JSON's white space, then takes `byte` if it is next.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }
}
