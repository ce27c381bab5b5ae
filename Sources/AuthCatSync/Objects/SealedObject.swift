import AuthCatCore
import AuthCatEssentials
import Foundation

/// How batches, snapshots and markers are sealed (docs/FORMAT.md §5.3).
///
/// The JSON payload is padded (ISO/IEC 7816-4: one 0x80 byte, then zeros) so
/// that the stored object is exactly a power of two bytes, at least 512, and
/// sealed with XChaCha20-Poly1305 under the object key. The associated data
/// `authcat-sync-object:v1|<vault>|<device>|<name>` binds the object to its
/// vault, its writer (`vault` for vault-wide markers) and its name, so an
/// object copied to another name, device or vault fails to open.
enum SealedObject {
    static let minimumSize = 512
    static let overhead = AEAD.nonceSize + AEAD.tagSize

    static func associatedData(vault: String, device: String, name: String) -> Data {
        Data("authcat-sync-object:v1|\(vault)|\(device)|\(name)".utf8)
    }

    /// The stored size for a payload of `length` bytes.
    static func bucketSize(forPayload length: Int) -> Int {
        var size = minimumSize
        while size < length + 1 + overhead { size *= 2 }
        return size
    }

    static func seal(_ payload: Data, key: SecretBytes, vault: String, device: String, name: String) throws -> Data {
        var padded = payload
        padded.append(0x80)
        padded.append(Data(count: bucketSize(forPayload: payload.count) - overhead - padded.count))
        return try AEAD.seal(padded, key: key, associatedData: associatedData(vault: vault, device: device, name: name))
    }

    /// The payload, or `SyncObjectError` if the object is not authentic or malformed.
    static func open(_ object: Data, key: SecretBytes, vault: String, device: String, name: String) throws -> Data {
        let padded: Data
        do {
            padded = try AEAD.open(
                object, key: key, associatedData: associatedData(vault: vault, device: device, name: name)
            )
            .unprotectedData()
        } catch {
            throw SyncObjectError.notAuthentic
        }
        guard let end = padded.lastIndex(where: { $0 != 0 }), padded[end] == 0x80 else {
            throw SyncObjectError.badPadding
        }
        return padded.prefix(upTo: end)
    }
}

/// The chain hash of a stored object: SHA-256 of all its bytes, lowercase hex.
/// Public for remotes outside this module (the test remote) that report it as an object's version.
public enum ObjectHash {
    public static func of(_ object: Data) -> String {
        SHA256.hash(object).map { String(format: "%02x", $0) }.joined()
    }
}
