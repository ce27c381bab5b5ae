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
        var format: String?
        var version: UInt64?
        var vaultID: String?
        var protection: String?
        var key: Data?
        var kdf: KDFParameters?
        var wrappedKey: Data?
        let whole = scanner.members { scanner, name in
            switch name {
            case "format" where format == nil:
                format = scanner.string()
                return format != nil
            case "version" where version == nil:
                version = scanner.integer()
                return version != nil
            case "vault_id" where vaultID == nil:
                vaultID = scanner.string()
                return vaultID != nil
            case "protection" where protection == nil:
                protection = scanner.string()
                return protection != nil
            case "key" where key == nil:
                key = scanner.base64()
                return key != nil
            case "kdf" where kdf == nil:
                kdf = plainKDF(&scanner)
                return kdf != nil
            case "wrapped_key" where wrappedKey == nil:
                wrappedKey = scanner.base64()
                return wrappedKey != nil
            default: return false
            }
        }
        guard whole, scanner.isAtEnd, let format, let version = version.flatMap(Int.init(exactly:)), let vaultID,
            let protection = protection.flatMap(Protection.init(rawValue:))
        else { return nil }
        return VaultKeyFile(
            format: format, version: version, vaultID: vaultID, protection: protection, key: key, kdf: kdf,
            wrappedKey: wrappedKey)
    }

    /// Far more than a key file takes (under 400 bytes with a passphrase); a
    /// longer file is left to the decoder.
    static let maximumPlainFormSize = 4_096

    /// The `kdf` object of a key file in the plain form: its four members, each once.
    private static func plainKDF(_ scanner: inout PlainJSONScanner) -> KDFParameters? {
        var algorithm: String?
        var opsLimit: UInt64?
        var memLimit: UInt64?
        var salt: Data?
        let whole = scanner.members { scanner, name in
            switch name {
            case "algorithm" where algorithm == nil:
                algorithm = scanner.string()
                return algorithm != nil
            case "opsLimit" where opsLimit == nil:
                opsLimit = scanner.integer()
                return opsLimit != nil
            case "memLimit" where memLimit == nil:
                memLimit = scanner.integer()
                return memLimit != nil
            case "salt" where salt == nil:
                salt = scanner.base64()
                return salt != nil
            default: return false
            }
        }
        guard whole, let algorithm, let opsLimit, let memLimit, let salt else { return nil }
        return KDFParameters(algorithm: algorithm, opsLimit: opsLimit, memLimit: memLimit, salt: salt)
    }
}

extension VaultKeyFile {
    /// The part of JSON that `plainForm` reads; a value it cannot read is nil.
    private struct PlainJSONScanner {
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

        /// Walks an object, handing each member's name to `member`, which reads
        /// the value and says whether it could; false when it could not, or the
        /// object is not well formed.
        mutating func members(_ member: (inout PlainJSONScanner, String) -> Bool) -> Bool {
            guard take(UInt8(ascii: "{")) else { return false }
            if take(UInt8(ascii: "}")) { return true }
            repeat {
                guard let name = string(), take(UInt8(ascii: ":")), member(&self, name) else { return false }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}"))
        }

        mutating func string() -> String? {
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

        /// A string decoded by `Data(base64Encoded:)`, as `JSONDecoder` decodes `Data`.
        mutating func base64() -> Data? {
            string().flatMap { Data(base64Encoded: $0) }
        }

        /// Digits without a leading zero, ending before anything but a fraction or exponent.
        mutating func integer() -> UInt64? {
            skipSpace()
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
}
