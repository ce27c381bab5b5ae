import AuthCatCore
import AuthCatEssentials
import Foundation

/// The 68 bytes that start every authcat backup (see docs/FORMAT.md §4):
///
/// ```
/// offset size
///  0      8   magic "AUTHCATB"
///  8      2   format version, big-endian (1)
/// 10      1   key derivation: 2 = Argon2id (crypto_pwhash_ALG_ARGON2ID13)
/// 11      1   reserved, 0
/// 12      8   opslimit, big-endian
/// 20      8   memlimit in bytes, big-endian
/// 28     16   salt
/// 44     24   secretstream header
/// ```
public struct BackupHeader: Equatable, Sendable {
    public static let magic = Data("AUTHCATB".utf8)
    public static let currentVersion: UInt16 = 1
    public static let argon2idIdentifier: UInt8 = 2
    public static let size = 68

    public var version: UInt16 = currentVersion
    public var kdf: KDFParameters
    public var streamHeader: Data

    public init(kdf: KDFParameters, streamHeader: Data) {
        self.kdf = kdf
        self.streamHeader = streamHeader
    }

    /// Whether `data` starts like a backup.
    public static func hasMagic(_ data: Data) -> Bool {
        data.count >= magic.count && data.prefix(magic.count) == magic
    }

    public func encoded() -> Data {
        var bytes = Self.magic
        bytes.appendBigEndian(version)
        bytes.append(Self.argon2idIdentifier)
        bytes.append(0)
        bytes.appendBigEndian(kdf.opsLimit)
        bytes.appendBigEndian(kdf.memLimit)
        bytes.append(kdf.salt)
        bytes.append(streamHeader)
        return bytes
    }

    /// Reads the header at the start of `data`.
    public init(decoding data: Data) throws {
        guard Self.hasMagic(data) else { throw BackupError.notABackup }
        guard data.count >= Self.size else { throw BackupError.truncated }
        let bytes = [UInt8](data.prefix(Self.size))
        version = UInt16(bytes[8]) << 8 | UInt16(bytes[9])
        guard version == Self.currentVersion else { throw BackupError.newerVersion(version) }
        guard bytes[10] == Self.argon2idIdentifier, bytes[11] == 0 else {
            throw BackupError.unsupportedKeyDerivation("unknown key derivation \(bytes[10])")
        }
        let salt = Data(bytes[28..<44])
        kdf = try KDFParameters(opsLimit: Self.bigEndian(bytes[12..<20]), memLimit: Self.bigEndian(bytes[20..<28]))
        kdf.salt = salt
        streamHeader = Data(bytes[44..<68])
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}

extension Data {
    mutating func appendBigEndian<Value: FixedWidthInteger>(_ value: Value) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
