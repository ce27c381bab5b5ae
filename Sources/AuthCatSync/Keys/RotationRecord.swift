import AuthCatCore
import AuthCatEssentials
import Foundation

/// The record of one key rotation (docs/FORMAT.md §5.9), stored create-only as
/// `authcat-<vault>/rotation-<epoch>-<digest>` and signed by the authority in
/// force before it: the pinned one for epoch 1, else the one the previous
/// record names.
///
/// It moves the vault from epoch − 1 to `epoch`: it seals the new master key
/// to each remaining device's certified key, names the revoked devices, and
/// says up to which object each device's writing under the old key counts
/// (the cut points). `previous` chains it to the record it follows, so a
/// replayed or withheld record cannot take the place of another.
///
/// A rotation that changes the secrets (a passphrase change) also makes a new
/// manifest key: the record then carries its wraps for the new secrets
/// (`manifestKey`, version 2), and its wrapped keys are under that new key,
/// so nothing the old passphrase opens reaches them, while whoever holds a
/// new secret can finish a change killed before its manifest was written.
struct RotationRecord: SignedDocument, Equatable {
    static let signatureKind = "rotation"
    static let format = "authcat-sync-rotation"

    /// The new master key, sealed to one device's certified public key.
    struct SealedKey: Codable, Equatable {
        var device: String
        /// The certified key it was sealed to, so the certificate can be re-issued by the new authority.
        var boxPublicKey: Data
        var sealedKey: Data

        enum CodingKeys: String, CodingKey {
            case device
            case boxPublicKey = "box_public_key"
            case sealedKey = "sealed_key"
        }
    }

    /// The last object of a device's chain under the old key that counts:
    /// its batch `sequence`, whose stored bytes hash (SHA-256) to `chainHash`.
    /// Sequence 0 (hash "") means none.
    struct Cut: Codable, Equatable {
        var device: String
        var sequence: Int64
        var chainHash: String

        enum CodingKeys: String, CodingKey {
            case device, sequence
            case chainHash = "chain_hash"
        }
    }

    var format = RotationRecord.format
    /// 1, or 2 when the record carries `manifestKey`.
    var version = 1
    var vault: String
    var epoch: Int64
    /// The SHA-256 (hex) of the stored bytes of the record of `epoch − 1`; "" for epoch 1.
    var previous: String
    var createdAt: Int64
    /// The device that made the rotation.
    var device: String
    /// The authority that signs the next record and the manifests of this epoch.
    var authorityPublicKey: Data
    var revoked: [String]
    var keys: [SealedKey]
    var cuts: [Cut]
    /// BLAKE2b-256 keyed with the new master key over `"authcat-sync-epoch-key:v1|<vault>|<epoch>"`:
    /// a device checks the key it unsealed (or unwrapped from the manifest) is this epoch's.
    var keyCommitment: Data
    /// The new master key and the new authority's secret key wrapped under the
    /// manifest key, as in the manifest: whoever holds the passphrase or the
    /// recovery key can finish a rotation killed before its manifest was written.
    var wrappedMasterKey: Data
    var wrappedAuthority: Data
    /// The new manifest key's wraps for the new secrets, when the rotation made one.
    var manifestKey: ManifestKeyWraps?
    var signature: Data?

    enum CodingKeys: String, CodingKey {
        case format, version, vault, epoch, previous, device, revoked, keys, cuts, signature
        case manifestKey = "manifest_key"
        case createdAt = "created_at"
        case authorityPublicKey = "authority_public_key"
        case keyCommitment = "key_commitment"
        case wrappedMasterKey = "wrapped_master_key"
        case wrappedAuthority = "wrapped_authority"
    }

    /// What a rotation needs to know about one device that stays.
    struct Recipient {
        let device: String
        let boxPublicKey: Data
    }

    /// A signed record moving `vault` to `epoch` with `masterKey`.
    static func make(
        vault: String, epoch: Int64, previous: String, by device: String, masterKey: SecretBytes,
        recipients: [Recipient], revoked: [String], cuts: [Cut], nextAuthority: AuthorityKey,
        manifestKey: SecretBytes, newWraps: ManifestKeyWraps?, signer: AuthorityKey, at date: Date
    ) throws -> RotationRecord {
        let record = RotationRecord(
            version: newWraps == nil ? 1 : 2, vault: vault, epoch: try RemoteLayout.checkedNumber(epoch),
            previous: previous,
            createdAt: date.unixMilliseconds, device: device, authorityPublicKey: nextAuthority.publicKey,
            revoked: revoked.sorted(),
            keys: try recipients.sorted { $0.device < $1.device }.map {
                SealedKey(
                    device: $0.device, boxPublicKey: $0.boxPublicKey,
                    sealedKey: try PublicKeyCrypto.sealed(masterKey, to: $0.boxPublicKey))
            },
            cuts: cuts.sorted { $0.device < $1.device },
            keyCommitment: try keyCommitment(masterKey, vault: vault, epoch: epoch),
            wrappedMasterKey: try CommittedWrap.wrap(
                masterKey, key: manifestKey, associatedData: KeyManifest.masterAssociatedData(vault, epoch)),
            wrappedAuthority: try CommittedWrap.wrap(
                nextAuthority.keyPair.secretKey, key: manifestKey,
                associatedData: KeyManifest.authorityAssociatedData(vault)),
            manifestKey: newWraps)
        return try signer.sign(record)
    }

    static func keyCommitment(_ masterKey: SecretBytes, vault: String, epoch: Int64) throws -> Data {
        try PublicKeyCrypto.hash(Data("authcat-sync-epoch-key:v1|\(vault)|\(epoch)".utf8), key: masterKey)
    }

    /// Whether `masterKey` is the key this record moved to.
    func commits(to masterKey: SecretBytes) throws -> Bool {
        PublicKeyCrypto.constantTimeEqual(try Self.keyCommitment(masterKey, vault: vault, epoch: epoch), keyCommitment)
    }

    /// This epoch's master key, opened with this device's key pair; nil when
    /// the record holds none for it (it was revoked or its key not certified).
    func masterKey(for device: String, keys deviceKeys: DeviceKeys) throws -> SecretBytes? {
        guard let sealed = keys.first(where: { $0.device == device }) else { return nil }
        let masterKey = try PublicKeyCrypto.openSealed(sealed.sealedKey, keyPair: deviceKeys.boxKeyPair)
        guard try commits(to: masterKey) else {
            throw SyncObjectError.wrongObject("the key sealed to this device is not the rotation's key")
        }
        return masterKey
    }

    /// The new master key and authority, opened with the manifest key (a secret was typed).
    func unwrap(manifestKey: SecretBytes) throws -> (keys: SyncKeys, authority: AuthorityKey) {
        let masterKey = try CommittedWrap.unwrap(
            wrappedMasterKey, key: manifestKey, associatedData: KeyManifest.masterAssociatedData(vault, epoch))
        let authority = try AuthorityKey(
            secretKey: try CommittedWrap.unwrap(
                wrappedAuthority, key: manifestKey, associatedData: KeyManifest.authorityAssociatedData(vault)))
        guard try commits(to: masterKey), PublicKeyCrypto.constantTimeEqual(authority.publicKey, authorityPublicKey)
        else { throw SyncObjectError.wrongObject("the rotation's wrapped keys are not the ones it names") }
        return (try SyncKeys(masterKey: masterKey), authority)
    }

    func cut(for device: String) -> Cut? { cuts.first { $0.device == device } }

    /// The record stored as `data` under `name`, decoded and checked against
    /// its name; the signature and chain are checked by `RotationChain`.
    static func decode(_ data: Data, name: String, vault: String) throws -> RotationRecord {
        guard let record = try? JSONDecoder().decode(RotationRecord.self, from: data), record.format == format,
            record.version == (record.manifestKey == nil ? 1 : 2)
        else { throw SyncObjectError.malformed("not a rotation record") }
        guard record.vault == vault, EpochLayout.rotation(vault, epoch: record.epoch, storedBytes: data) == name,
            record.authorityPublicKey.count == PublicKeyCrypto.signingPublicKeySize
        else { throw SyncObjectError.wrongObject("rotation record for another vault, epoch or name") }
        return record
    }
}
