import AuthCatCore
import AuthCatEssentials
import Foundation

/// A device's public key, certified by the authority (docs/FORMAT.md §5.9),
/// stored as `authcat-<vault>/key-<device>`.
///
/// A rotation seals the new master key only to certified keys: a key is
/// trusted because the authority signed it, which needs the passphrase or
/// the recovery key, never because the remote lists it. The device's name is
/// not in it (names are private; they travel inside sealed batches).
struct DeviceCertificate: SignedDocument, Equatable {
    static let signatureKind = "device-key"
    static let format = "authcat-sync-device-key"

    var format = DeviceCertificate.format
    var version = 1
    var vault: String
    var device: String
    /// The device's X25519 public key, to which rotations seal master keys.
    var boxPublicKey: Data
    var certifiedAt: Int64
    var signature: Data?

    enum CodingKeys: String, CodingKey {
        case format, version, vault, device, signature
        case boxPublicKey = "box_public_key"
        case certifiedAt = "certified_at"
    }

    static func issue(
        vault: String, device: String, boxPublicKey: Data, by authority: AuthorityKey, at date: Date
    ) throws -> DeviceCertificate {
        try authority.sign(
            DeviceCertificate(
                vault: vault, device: device, boxPublicKey: boxPublicKey, certifiedAt: date.unixMilliseconds))
    }

    /// The certificate stored as `data` under `name`, once `authority` signed
    /// it for this vault and the device its name says; else `SyncObjectError`.
    static func open(_ data: Data, name: String, vault: String, authority: Data) throws -> DeviceCertificate {
        guard let certificate = try? JSONDecoder().decode(DeviceCertificate.self, from: data),
            certificate.format == format, certificate.version == 1
        else { throw SyncObjectError.malformed("not a device key certificate") }
        guard certificate.vault == vault, EpochLayout.deviceKey(vault, device: certificate.device) == name,
            certificate.boxPublicKey.count == PublicKeyCrypto.boxPublicKeySize
        else { throw SyncObjectError.wrongObject("device key certificate for another vault or device") }
        guard try certificate.isSigned(by: authority) else { throw SyncObjectError.notAuthentic }
        return certificate
    }
}
