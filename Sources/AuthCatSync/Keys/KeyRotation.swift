import AuthCatCore
import AuthCatEssentials
import Foundation

/// Moving a remote vault to a new master key (docs/FORMAT.md §5.9,
/// SECURITY.md "Lost devices"), in the order that keeps it readable when
/// killed at any moment:
///
/// 1. `prepare`: open the manifest with the passphrase or recovery key (the
///    right to rotate), read the certified device keys, make the new master
///    key and a new authority, and the signed record and manifest. Nothing written.
/// 2. `publish`: create the record (create-only), then replace the manifest.
///    Until the record exists the old epoch is complete; once it exists every
///    remaining device can take the new key from it, and a run killed before
///    the manifest is finished by running it again (`resume`).
/// 3. The caller writes its snapshot of every live record under the new key.
/// 4. `removeOldEpoch`: only then are the old epoch's objects deleted.
struct KeyRotation {
    let remote: any Remote
    let vaultID: String
    /// The rotating device (or the device joining, which finishes a rotation killed part-way).
    let device: String
    let clock: Clock

    struct Prepared {
        let record: RotationRecord
        let recordBytes: Data
        let recordName: String
        let manifestKey: SecretBytes
        /// The manifest of the epoch rotated from.
        let manifest: KeyManifest
        /// The new epoch's keys.
        let keys: SyncKeys
        /// Devices that stay but hold no certified key: they must join again.
        let leftOut: [String]
    }

    /// Builds the rotation from the vault's current epoch.
    ///
    /// - Parameters:
    ///   - position: where this device stands in the chain; the manifest's
    ///     epoch must be this one (else a rotation is under way: `resume`).
    ///   - devices: every device that stays or goes, as this device knows them (ids).
    ///   - cuts: each device's last batch this device imported (and its own).
    func prepare(
        secret: SyncService.Secret, position: RotationChain.Position, devices: Set<String>, revoking: Set<String>,
        cuts: [RotationRecord.Cut]
    ) async throws -> Prepared {
        let (stored, _) = try await StoredManifest.read(from: remote, vaultID: vaultID)
        guard case .version2(let manifest) = stored, let opened = try stored.unlock(with: secret).version2 else {
            throw SyncError(
                .other,
                "this remote vault was made by an earlier authcat: change its passphrase first "
                    + "(authcat sync passphrase change --new-recovery-key), then rotate")
        }
        guard manifest.epoch == position.epoch, manifest.rotation == position.recordHash else {
            throw SyncError(
                .other, "the remote is at another key epoch than this device; sync first, then rotate again")
        }
        let certified = try await certifiedKeys(authority: opened.authority.publicKey)
        let staying = devices.union([device]).subtracting(revoking)
        let recipients = staying.sorted().compactMap { id in
            certified[id].map { RotationRecord.Recipient(device: id, boxPublicKey: $0.boxPublicKey) }
        }
        let keys = try SyncKeys.generate()
        let epoch = position.epoch + 1
        let record = try RotationRecord.make(
            vault: vaultID, epoch: epoch, previous: position.recordHash, by: device, masterKey: keys.masterKey,
            recipients: recipients, revoked: Array(revoking), cuts: cuts, nextAuthority: try AuthorityKey.generate(),
            manifestKey: opened.manifestKey, signer: opened.authority, at: clock.now())
        let recordBytes = try record.encoded()
        return Prepared(
            record: record, recordBytes: recordBytes,
            recordName: EpochLayout.rotation(vaultID, epoch: epoch, storedBytes: recordBytes),
            manifestKey: opened.manifestKey, manifest: manifest, keys: keys,
            leftOut: staying.subtracting(recipients.map(\.device)).sorted())
    }

    /// Creates the record (create-only), then finishes the rotation.
    func publish(_ prepared: Prepared) async throws {
        guard try await remote.create(prepared.recordName, data: prepared.recordBytes) else {
            throw SyncError(.other, "another rotation record took this name; nothing was changed, sync and try again")
        }
        try await finish(
            record: prepared.record, recordBytes: prepared.recordBytes, manifestKey: prepared.manifestKey,
            previousManifest: prepared.manifest)
    }

    /// Everything after the record, each step safe to repeat: certificates
    /// re-issued by the new authority for the devices that stay, revoked
    /// devices' certificates removed, and the manifest of the new epoch.
    func finish(
        record: RotationRecord, recordBytes: Data, manifestKey: SecretBytes, previousManifest: KeyManifest
    ) async throws {
        let (keys, authority) = try record.unwrap(manifestKey: manifestKey)
        for sealed in record.keys {
            let certificate = try DeviceCertificate.issue(
                vault: vaultID, device: sealed.device, boxPublicKey: sealed.boxPublicKey, by: authority,
                at: clock.now())
            try await remote.put(
                EpochLayout.deviceKey(vaultID, device: sealed.device), data: try certificate.encoded())
        }
        for revoked in record.revoked {
            try await remote.delete(EpochLayout.deviceKey(vaultID, device: revoked))
        }
        let manifest = try KeyManifest.make(
            vaultID: vaultID, epoch: record.epoch, rotation: ObjectHash.of(recordBytes), manifestKey: manifestKey,
            keys: keys, authority: authority,
            wrapping: .unchanged(
                passphraseWrap: previousManifest.passphraseWrappedKey,
                recoveryWrap: previousManifest.recoveryWrappedKey),
            kdf: previousManifest.kdf, createdAt: clock.now())
        try await remote.put(RemoteLayout.manifest(vaultID), data: try manifest.encoded())
    }

    /// Finishes a rotation killed after its record was created: the manifest
    /// still wraps the old epoch's key while a proved record moved past it.
    /// Returns the epoch the remote is now at.
    func resume(secret: SyncService.Secret) async throws -> Int64 {
        let (stored, _) = try await StoredManifest.read(from: remote, vaultID: vaultID)
        guard case .version2(var manifest) = stored, let opened = try stored.unlock(with: secret).version2 else {
            return 0
        }
        let listing = try await remote.list(prefix: EpochLayout.rotationPrefix(vaultID))
        var position = manifest.position
        var authority = opened.authority
        while let (record, bytes) = try await provedRecord(after: position, in: listing) {
            try await finish(
                record: record, recordBytes: bytes, manifestKey: opened.manifestKey, previousManifest: manifest)
            authority = try record.unwrap(manifestKey: opened.manifestKey).authority
            position = RotationChain.Position(
                epoch: record.epoch, recordHash: ObjectHash.of(bytes), authority: authority.publicKey)
            guard case .version2(let written) = try await StoredManifest.read(from: remote, vaultID: vaultID).0
            else { break }
            manifest = written
        }
        return position.epoch
    }

    /// The record of the epoch after `position` that chains to it and that
    /// its authority signed (the smallest digest when there are two).
    private func provedRecord(
        after position: RotationChain.Position, in listing: [RemoteObject]
    ) async throws
        -> (RotationRecord, Data)?
    {
        for object in listing {
            guard case .rotation(_, let epoch, _) = EpochLayout.parse(object.name), epoch == position.epoch + 1,
                let data = try await remote.get(object.name),
                let record = try? RotationRecord.decode(data, name: object.name, vault: vaultID),
                record.previous == position.recordHash, try record.isSigned(by: position.authority)
            else { continue }
            return (record, data)
        }
        return nil
    }

    /// Deletes every batch, snapshot and marker of epochs before `epoch`;
    /// call it only once the new generation is complete (the rotating
    /// device's snapshot of every live record is written under the new key).
    /// Manifest, certificates and rotation records stay. Returns how many were deleted.
    func removeObjects(before epoch: Int64) async throws -> Int {
        var removed = 0
        for object in try await remote.list(prefix: RemoteLayout.folder(vaultID) + "/") {
            guard let objectEpoch = Self.epoch(ofSealedObject: object.name, vault: vaultID), objectEpoch < epoch
            else { continue }
            try await remote.delete(object.name)
            removed += 1
        }
        return removed
    }

    /// The epoch a batch, snapshot or marker name belongs to; nil for anything else.
    static func epoch(ofSealedObject name: String, vault: String) -> Int64? {
        if let parsed = EpochLayout.parse(name) {
            guard case .epochObject(let v, let epoch, _) = parsed, v == vault else { return nil }
            return epoch
        }
        switch RemoteLayout.parse(name) {
        case .batch(let v, _, _), .snapshot(let v, _, _), .disabledMarker(let v, _): return v == vault ? 0 : nil
        default: return nil
        }
    }

    /// The certified box keys on the remote by device, checked against `authority`.
    func certifiedKeys(authority: Data) async throws -> [String: DeviceCertificate] {
        var certified: [String: DeviceCertificate] = [:]
        for object in try await remote.list(prefix: RemoteLayout.folder(vaultID) + "/key-") {
            guard case .deviceKey = EpochLayout.parse(object.name), let data = try await remote.get(object.name),
                let certificate = try? DeviceCertificate.open(
                    data, name: object.name, vault: vaultID, authority: authority)
            else { continue }
            certified[certificate.device] = certificate
        }
        return certified
    }
}
