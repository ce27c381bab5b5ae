import AuthCatEssentials
import Foundation

/// The payload of a "disabled everywhere" or "remote deleted" marker
/// (docs/FORMAT.md §5.5). Sealed like every object, so only a device holding
/// the master key can turn the others off.
struct Marker: Codable, Equatable {
    static let format = "authcat-sync-marker"

    enum Kind: String, Codable {
        case disabled, deleted
    }

    var format = Marker.format
    var version = 1
    var vault: String
    var kind: Kind
    /// The device that wrote it.
    var device: String
    var deviceName: String
    var createdAt: Int64

    enum CodingKeys: String, CodingKey {
        case format, version, vault, kind, device
        case deviceName = "device_name"
        case createdAt = "created_at"
    }

    /// Markers are vault-wide objects: their associated data names `vault` as the device.
    static let sealingDevice = "vault"

    /// The marker stored as `name`, once it opens with the vault's object key
    /// and decodes as a marker of `kind` for `vault`; else `SyncObjectError`.
    static func open(_ object: Data, name: String, kind: Kind, vault: String, objectKey: SecretBytes) throws -> Marker {
        let payload = try SealedObject.open(object, key: objectKey, vault: vault, device: sealingDevice, name: name)
        return try decode(payload, vault: vault, kind: kind)
    }

    static func decode(_ data: Data, vault: String, kind: Kind) throws -> Marker {
        guard let marker = try? JSONDecoder().decode(Marker.self, from: data) else {
            throw SyncObjectError.malformed("not a marker")
        }
        guard marker.format == format, marker.vault == vault, marker.kind == kind else {
            throw SyncObjectError.wrongObject("marker for another vault or purpose")
        }
        return marker
    }

    /// A device's recorded `disabledGeneration`, or 0 when it is the last
    /// number a name can hold: no device can write a marker past that, so
    /// only a planted one that an earlier authcat believed without opening it
    /// could have put it there, and keeping it would make this device deaf to
    /// every real one.
    static func trustedGeneration(_ disabledGeneration: Int64) -> Int64 {
        disabledGeneration < RemoteLayout.maximumNumber ? disabledGeneration : 0
    }
}
