import AuthCatCore
import AuthCatEssentials

/// The recovery key: 32 random bytes that unwrap the remote vault's master key
/// when the sync passphrase is forgotten. Shown once, when the remote vault is
/// made, as RFC 4648 Base32 (uppercase, no padding) in dash-separated groups
/// of four characters: 52 characters, 13 groups.
struct RecoveryKey {
    static let size = 32
    static let groupLength = 4

    let bytes: SecretBytes

    static func generate() throws -> RecoveryKey {
        RecoveryKey(bytes: try SecretBytes.random(count: size))
    }

    init(bytes: SecretBytes) {
        self.bytes = bytes
    }

    /// Reads a recovery key as typed (UTF-8): case, spaces and dashes do not matter.
    init(parsing text: SecretBytes) throws {
        let notAKey = SyncError(
            .wrongPassphrase, "that is not a recovery key: it must be 52 letters and digits 2-7, in groups of four")
        let decoded: SecretBytes
        do {
            decoded = try Base32.decode(text)
        } catch {
            throw notAKey
        }
        let symbols = text.withUnsafeBytes { bytes in
            // `& 0xDF` uppercases an ASCII letter; Base32 refused anything else that is not a separator.
            bytes.count(where: {
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0 & 0xDF)
                    || (UInt8(ascii: "2")...UInt8(ascii: "7")).contains($0)
            })
        }
        guard decoded.count == Self.size, symbols == (Self.size * 8 + 4) / 5 else { throw notAKey }
        bytes = decoded
    }

    /// The key as shown to the user.
    var formatted: String {
        let text = Array(Base32.encode(bytes))
        return stride(from: 0, to: text.count, by: Self.groupLength)
            .map { String(text[$0..<min($0 + Self.groupLength, text.count)]) }
            .joined(separator: "-")
    }
}
