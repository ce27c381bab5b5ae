import AuthCatCore
import AuthCatEssentials
import Foundation

/// Moving a remote vault to a new master key (docs/FORMAT.md §5.9,
/// SECURITY.md "Lost devices"), in the order that keeps it readable when
/// killed at any moment:
///
/// 1. `prepare`: open the manifest with the passphrase or recovery key (the
///    right to rotate), read the certified device keys, make the new master
///    key and a new authority (and, for new secrets, a new manifest key), and
///    the signed record. Nothing written.
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

    /// The secrets a rotation puts in force in place of the current ones (a
    /// passphrase change): the record and the new manifest then wrap a new
    /// manifest key, which nothing the old secrets opened reaches.
    struct NewSecrets {
        let passphrase: SecretBytes
        let kdf: KDFParameters
        /// A new recovery key, in place of the current one; nil keeps the
        /// current one working (sealed to its public half) without its being typed.
        let recoveryKey: RecoveryKey?
    }

    struct Prepared {
        let record: RotationRecord
        let recordBytes: Data
        let recordName: String
        /// The manifest key the record's keys are wrapped under (new with new secrets).
        let manifestKey: SecretBytes
        /// The manifest of the epoch rotated from.
        let manifest: KeyManifest
        /// The new epoch's keys.
        let keys: SyncKeys
        /// Devices the new key is sealed to.
        let recipients: [String]
        /// Devices that stay but hold no certified key: they must join again.
        let leftOut: [String]
    }

    /// Builds the rotation from the vault's current epoch.
    ///
    /// - Parameters:
    ///   - position: where this device stands in the chain; the manifest's
    ///     epoch must be this one (else a rotation is under way: `resume`).
    ///   - devices: every device that stays or goes, as this device knows them (ids).
    ///   - boxKeys: the key to seal to for each device that may receive it:
    ///     certified by the authority, and the one this device first read.
    ///   - cuts: each device's last batch this device imported (and its own).
    ///   - newSecrets: the secrets to put in force, for a passphrase change.
    ///   - acceptedManifest: the SHA-256 of the manifest this device accepted;
    ///     the manifest read must be that one, so that nothing rewritten in
    ///     place on the remote (a recovery side, wraps) is carried into new keys.
    func prepare(
        secret: SyncSecret, position: RotationChain.Position, devices: Set<String>,
        boxKeys: [String: Data], revoking: Set<String>, cuts: [RotationRecord.Cut], newSecrets: NewSecrets? = nil,
        acceptedManifest: String? = nil
    ) async throws -> Prepared {
        let (stored, data) = try await StoredManifest.read(from: remote, vaultID: vaultID)
        if let acceptedManifest, ObjectHash.of(data) != acceptedManifest {
            throw SyncError(
                .integrity,
                "the remote vault's manifest is not the one this device accepted (it was rewritten on the remote); "
                    + "nothing was changed. Put the manifest back from a good copy, then try again")
        }
        guard case .version2(let manifest) = stored,
            let opened = try await stored.unlock(with: secret, on: remote).version2
        else {
            throw SyncError(
                .other,
                "this remote vault was made by an earlier authcat: change its passphrase first "
                    + "(authcat sync passphrase change --new-recovery-key), then rotate")
        }
        guard manifest.position == position else {
            throw SyncError(
                .other, "the remote is at another key epoch than this device; sync first, then rotate again")
        }
        let staying = devices.union([device]).subtracting(revoking)
        let recipients = staying.sorted().compactMap { id in
            boxKeys[id].map { RotationRecord.Recipient(device: id, boxPublicKey: $0) }
        }
        let keys = try SyncKeys.generate()
        let epoch = position.epoch + 1
        let nextAuthority = try AuthorityKey.generate()
        var manifestKey = opened.manifestKey
        var newWraps: ManifestKeyWraps?
        if let newSecrets {
            manifestKey = try KeyManifest.newManifestKey()
            // A recovery key at hand is anchored at the new authority, whose secret half only the
            // new manifest key opens: nothing the old passphrase holds can sign a way around it.
            let anchor = RotationChain.Position(epoch: epoch, recordHash: "", authority: nextAuthority.publicKey)
            newWraps = try ManifestKeyWraps.make(
                manifestKey, passphrase: newSecrets.passphrase, kdf: newSecrets.kdf,
                recovery: try recoverySide(newSecrets, secret: secret, manifest: manifest, anchor: anchor),
                vaultID: vaultID)
        }
        let record = try RotationRecord.make(
            vault: vaultID, epoch: epoch, previous: position.recordHash, by: device, masterKey: keys.masterKey,
            recipients: recipients, revoked: Array(revoking), cuts: cuts, nextAuthority: nextAuthority,
            manifestKey: manifestKey, newWraps: newWraps, signer: opened.authority, at: clock.now())
        let recordBytes = try record.encoded()
        return Prepared(
            record: record, recordBytes: recordBytes,
            recordName: EpochLayout.rotation(vaultID, epoch: epoch, storedBytes: recordBytes),
            manifestKey: manifestKey, manifest: manifest, keys: keys, recipients: recipients.map(\.device),
            leftOut: staying.subtracting(recipients.map(\.device)).sorted())
    }

    /// How the new manifest key reaches the recovery key: a new one, the one
    /// typed (both anchored at `anchor`), or the current one's public half,
    /// which keeps its anchor. A recovery key from before version 3 has no public half.
    private func recoverySide(
        _ newSecrets: NewSecrets, secret: SyncSecret, manifest: KeyManifest, anchor: RotationChain.Position
    ) throws -> ManifestKeyWraps.RecoverySide {
        if let fresh = newSecrets.recoveryKey { return .key(fresh, anchoredAt: anchor) }
        if case .recoveryKey(let text) = secret { return .key(try RecoveryKey(parsing: text), anchoredAt: anchor) }
        if let kept = manifest.wraps.keptRecoverySide { return kept }
        throw SyncError(
            .other,
            "this remote vault's recovery key comes from an earlier authcat and cannot follow a passphrase change "
                + "unless it is typed once: give it instead of the passphrase (--use-recovery-key), or make a new "
                + "one (--new-recovery-key); nothing was changed")
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
    /// devices' certificates removed, and the manifest of the new epoch, of
    /// the next generation, with the record's new wraps or the previous ones.
    /// Returns the manifest it wrote.
    @discardableResult
    func finish(
        record: RotationRecord, recordBytes: Data, manifestKey: SecretBytes, previousManifest: KeyManifest
    ) async throws -> KeyManifest {
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
            wraps: record.manifestKey ?? previousManifest.wraps, createdAt: clock.now())
        try await remote.put(RemoteLayout.manifest(vaultID), data: try manifest.encoded())
        return manifest
    }

    /// Finishes a rotation killed after its record was created: the manifest
    /// still wraps the old epoch's key while a proved record moved past it.
    /// `secret` may open the manifest (the record then opens with its key) or
    /// only the record's own new wraps (a passphrase change, finished with the
    /// new passphrase). Returns the epoch the remote is now at.
    ///
    /// - Throws: `SyncError.wrongPassphrase` when `secret` opens neither;
    ///   `SyncError.supersededSecret` when it opens the manifest but a
    ///   proved record moved to secrets it does not hold.
    func resume(secret: SyncSecret) async throws -> Int64 {
        let (stored, _) = try await StoredManifest.read(from: remote, vaultID: vaultID)
        guard case .version2(var manifest) = stored else {
            _ = try await stored.unlock(with: secret, on: remote)
            return 0
        }
        var manifestKey: SecretBytes?
        do {
            manifestKey = try await stored.unlock(with: secret, on: remote).version2?.manifestKey
        } catch let error as SyncError where error.category == .wrongPassphrase {
            manifestKey = nil
        }
        let listing = try await remote.list(prefix: EpochLayout.rotationPrefix(vaultID))
        var position = manifest.position
        while let (record, bytes) = try await provedRecord(after: position, in: listing) {
            let next = RotationChain.Position(
                epoch: record.epoch, recordHash: ObjectHash.of(bytes), authority: record.authorityPublicKey)
            guard
                let key = try await openManifestKey(
                    of: record, at: next, secret: secret, current: manifestKey, listing: listing)
            else {
                if manifestKey == nil { throw SyncError.wrongPassphrase }
                throw SyncError.supersededSecret(epoch: record.epoch)
            }
            // What was just written goes on, never a read-back the remote could change meanwhile.
            manifest = try await finish(
                record: record, recordBytes: bytes, manifestKey: key, previousManifest: manifest)
            manifestKey = key
            position = next
        }
        if manifestKey == nil { throw SyncError.wrongPassphrase }
        return position.epoch
    }

    /// The manifest key `record`'s keys are wrapped under, as `secret` (or the
    /// manifest key it opened) reaches it. A recovery key that opened the
    /// record's sealed box believes it only once the chain from its anchor
    /// leads to the record (`next`): anyone can seal to its public half.
    private func openManifestKey(
        of record: RotationRecord, at next: RotationChain.Position, secret: SyncSecret,
        current: SecretBytes?, listing: [RemoteObject]
    ) async throws -> SecretBytes? {
        guard let wraps = record.manifestKey else { return current }
        let opened: (manifestKey: SecretBytes, anchor: RotationChain.Position?)
        do {
            opened = try wraps.openManifestKey(with: secret, vaultID: vaultID)
        } catch let error as SyncError where error.category == .wrongPassphrase {
            return nil
        } catch let error as KeyDerivationLimitError {
            throw error.from("the remote vault's rotation record")
        }
        if let anchor = opened.anchor,
            !(try await RotationChain(remote: remote, vault: vaultID).proves(next, from: anchor, listing: listing))
        {
            return nil
        }
        return opened.manifestKey
    }

    /// The record of the epoch after `position` that chains to it and that
    /// its authority signed: the smallest digest when there are two, the rule
    /// every device follows (`RotationChain`), whatever order the remote lists.
    private func provedRecord(
        after position: RotationChain.Position, in listing: [RemoteObject]
    ) async throws
        -> (RotationRecord, Data)?
    {
        for object in listing.sorted(by: { $0.name < $1.name }) {
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

    /// The devices the last change of secrets knew (those it sealed the key
    /// to, revoked, or was made by), walking back from `position` through the
    /// records by their hashes; nil when the secrets never changed since the
    /// vault was made. What joined since is what a leaked passphrase could have
    /// enrolled, so a passphrase change names it.
    func devicesKnownAtLastSecretChange(from position: RotationChain.Position) async throws -> Set<String>? {
        let listing = try await remote.list(prefix: EpochLayout.rotationPrefix(vaultID))
        var wanted = (epoch: position.epoch, hash: position.recordHash)
        while wanted.epoch > 0 {
            guard let (record, _) = try await record(at: wanted.epoch, hash: wanted.hash, in: listing) else {
                return nil
            }
            if record.manifestKey != nil {
                return Set(record.keys.map(\.device) + record.revoked + [record.device])
            }
            wanted = (wanted.epoch - 1, record.previous)
        }
        return nil
    }

    /// The record of `epoch` whose stored bytes hash to `hash`.
    private func record(
        at epoch: Int64, hash: String, in listing: [RemoteObject]
    ) async throws -> (RotationRecord, Data)? {
        for object in listing {
            guard case .rotation(_, let listed, let digest) = EpochLayout.parse(object.name), listed == epoch,
                hash.hasPrefix(digest), let data = try await remote.get(object.name), ObjectHash.of(data) == hash
            else { continue }
            return (try RotationRecord.decode(data, name: object.name, vault: vaultID), data)
        }
        return nil
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
