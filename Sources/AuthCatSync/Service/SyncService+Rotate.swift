import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncService {
    /// An account on the lost-device checklist: issuer and name, never a secret.
    ///
    /// Every account of the vault is on it, because what a revoked device
    /// could read does not end at its last sync: a sync that changes nothing
    /// writes nothing, so no device learns of it, and a copy of its files
    /// holding its storage credentials reads every object of the old key
    /// until the rotation. `held` tells apart what it certainly held.
    public struct ExposedAccount: Sendable, Equatable, Codable {
        public var issuer: String
        public var name: String
        /// Deleted here; a revoked device may have held it before.
        public var deleted: Bool
        /// The account was there at the revoked device's last sync known here,
        /// so it held it. False: added since, so it may not have (it may have
        /// synced since without writing), but the remote held it under the key it had.
        public var held: Bool
    }

    /// What `rotate` did.
    public struct RotationOutcome: Sendable {
        /// The remote's display location.
        public var remote: String
        /// The key epoch the remote vault is at now.
        public var epoch: Int64
        /// The devices revoked by this rotation (ids).
        public var revoked: [String]
        /// The devices the new key was sealed to, this one included.
        public var recipients: [DeviceDirectory.Device]
        /// Devices that stay but held no certified key: they must join again with the passphrase.
        public var leftOut: [String]
        /// Devices given no key because their certified key on the remote is not
        /// the one this device first read for them (someone holding the
        /// authority rewrote it): revoke them, or they join again.
        public var keyChanged: [String]
        /// Objects of the old key removed from the remote.
        public var objectsRemoved: Int
        /// With a revocation, every account the vault held (the lost-device checklist).
        public var exposedAccounts: [ExposedAccount]
        /// The newest last sync known here of the devices revoked (when this
        /// device last read one of their batches, or their certificate); nil when unknown.
        public var revokedLastSeen: Date?
    }

    /// Moves the remote vault to a new master key (`KeyRotation`, FORMAT.md §5.9),
    /// revoking the devices whose ids `revoking` holds (the caller resolved the
    /// words a user typed: `DeviceDirectory.resolve`), in an order that a
    /// kill at any moment leaves readable by the remaining devices:
    ///
    /// 1. a rotation killed after its record was written is finished first;
    /// 2. a sync brings this device up to date (its cut points are what it read);
    /// 3. the signed record is created, sealing the new key to each remaining
    ///    certified device, then the manifest of the new epoch is written;
    /// 4. a sync adopts the new key and writes every live record under it
    ///    (the new generation);
    /// 5. only then are the old key's objects removed.
    ///
    /// Running it again after a kill finishes what was started and rotates once more.
    ///
    /// - Parameter secret: the sync passphrase or recovery key, which proves the right to rotate.
    /// - Throws: `SyncError.syncOff` when sync is not on here, `.wrongPassphrase`
    ///   when `secret` does not open the manifest (nothing is written).
    public func rotate(
        secret: SyncSecret, revoking: [String], progress: ((SyncProgress) -> Void)? = nil,
        whenBusy: () -> Void = {}
    ) async throws -> RotationOutcome {
        try await coordinator.withRunLock(whenBusy: whenBusy) {
            defer { refreshNotice() }
            let (store, record) = try enabledState()
            return try await withRemote(record.remoteURL, createOnlyEnforced: record.createOnlyEnforced) { remote in
                try await Rotation(service: self, store: store, record: record, remote: remote, progress: progress)
                    .run(secret: secret, revoking: revoking)
            }
        }
    }

    /// The sync state of a device on which sync is on, or why there is none.
    func enabledState() throws -> (SyncStore, SyncStore.StateRecord) {
        try look().on()
    }

    /// One rotation, with everything it needs opened once: the service's
    /// vault, the state, the remote. `sync rotate` and `sync passphrase
    /// change` (a rotation to new secrets) both run it.
    struct Rotation {
        let service: SyncService
        let store: SyncStore
        let record: SyncStore.StateRecord
        let remote: any Remote
        let progress: ((SyncProgress) -> Void)?

        /// The steps of `rotate`. `chooseRevocations` is shown the devices
        /// that joined since the secrets were last changed and returns the
        /// ids of those to revoke too; `announce` runs once everything is prepared and
        /// before anything is written (to show a new recovery key).
        func run(
            secret: SyncSecret, revoking: [String], newSecrets: KeyRotation.NewSecrets? = nil,
            chooseRevocations: ([DeviceDirectory.Device]) throws -> [String] = { _ in [] },
            announce: () throws -> Void = {}
        ) async throws -> RotationOutcome {
            guard let sealedDeviceKey = record.sealedDeviceKey, record.authorityPublicKey != nil else {
                throw SyncError(
                    .other,
                    "this device joined before devices had keys of their own: turn sync off here and on again "
                        + "with the sync passphrase, then try again")
            }
            let vault = service.vault
            // This device's key pair must open here: the rotation seals the new key to it too.
            let ownKeys = try DeviceKeys.unsealLocally(
                sealedDeviceKey, sealingKey: try vault.derivedKey(context: DeviceKeys.localContext),
                remoteVaultID: record.remoteVaultID, deviceID: record.deviceID)
            let rotation = KeyRotation(
                remote: remote, vaultID: record.remoteVaultID, device: record.deviceID, clock: service.clock)
            let engine = SyncEngine(
                vault: vault, remote: remote, recorder: service.recorder, clock: service.clock, store: store)
            _ = try await rotation.resume(secret: secret)
            do {
                _ = try await engine.run(progress: progress, compacting: false)
            } catch let error as SyncError where error.cause is RotationFollowing.UnprovedEpoch {
                // A record nobody can prove (forged, or planted by the remote) must not stop a
                // revocation: the rotation to come proves its own epoch; the cuts are as last synced.
            }
            let before = try SyncService.rotationStart(store)
            // Read again on the store this job holds (no second look): the sync above may have met new devices.
            let directory = try DeviceDirectory.read(
                from: store, state: SyncStore.requiredState(store), vaultDeviceName: vault.identity.deviceName)
            // A device certified but not yet seen writing (it joined with nothing to export) stays too;
            // one already revoked is gone for good, never "left out".
            // The certificates are read once: what is offered for revocation is what is sealed to.
            let certified = try await rotation.certifiedKeys(authority: before.position.authority)
            let alreadyRevoked = Set(directory.devices.filter(\.isRevoked).map(\.id))
            let devices = before.devices.union(certified.keys).subtracting(alreadyRevoked)
            let (boxKeys, keyChanged) = try Self.boxKeys(
                certified, pinned: store.pinnedBoxKeys(), own: (record.deviceID, ownKeys.boxKeyPair.publicKey))
            // Devices with no row here yet (a certificate first read now) are named by id.
            let everyDevice = DeviceDirectory(
                devices: directory.devices
                    + devices.subtracting(directory.devices.map(\.id)).map { DeviceDirectory.Device(id: $0, name: nil) }
            )
            var revoked = Set(revoking)
            if newSecrets != nil {
                let known = try await rotation.devicesKnownAtLastSecretChange(from: before.position)
                revoked.formUnion(
                    try chooseRevocations(
                        everyDevice.devices.filter {
                            devices.contains($0.id) && !$0.isThisDevice && !(known?.contains($0.id) ?? false)
                        }))
            }
            // Ids resolved by the caller in the directory it read, which this one holds too.
            if let unknown = revoked.first(where: { id in !everyDevice.devices.contains { $0.id == id } }) {
                throw DeviceDirectory.NamingError.unknown(unknown, candidates: everyDevice.devices)
            }
            if revoked.contains(record.deviceID) {
                throw SyncError(.other, "this device cannot revoke itself; rotate from another device")
            }
            // A device certified but never read writing: its last sync known here is when it joined.
            let lastSyncs = directory.devices.filter { revoked.contains($0.id) }.compactMap {
                $0.lastSeen ?? $0.firstSeen
            }
            let exposed = revoked.isEmpty ? [] : try service.exposedAccounts(lastSyncs: lastSyncs)
            let prepared = try await rotation.prepare(
                secret: secret, position: before.position, devices: devices, boxKeys: boxKeys, revoking: revoked,
                cuts: before.cuts, newSecrets: newSecrets, acceptedManifest: try store.state()?.manifestHash)
            try announce()
            try await rotation.publish(prepared)
            _ = try await engine.run(progress: progress, compacting: false)
            try checkAdopted(prepared)
            let removed = try await rotation.removeObjects(before: prepared.record.epoch)
            return RotationOutcome(
                remote: remote.displayLocation, epoch: prepared.record.epoch, revoked: revoked.sorted(),
                recipients: prepared.recipients.compactMap { id in everyDevice.devices.first { $0.id == id } },
                leftOut: prepared.leftOut.filter { !keyChanged.contains($0) }, keyChanged: keyChanged.sorted(),
                objectsRemoved: removed, exposedAccounts: exposed, revokedLastSeen: lastSyncs.max())
        }

        /// The key to seal to for each device: its certificate's, when that is
        /// the key this device first read for it (a certificate rewritten by
        /// whoever held a replaced authority gets nothing), and this device's
        /// own from its own key pair. Returns the devices left without one
        /// because their certified key changed.
        private static func boxKeys(
            _ certified: [String: DeviceCertificate], pinned: [String: Data], own: (id: String, key: Data)
        ) -> (keys: [String: Data], changed: Set<String>) {
            var keys: [String: Data] = [:]
            var changed: Set<String> = []
            for (id, certificate) in certified where id != own.id {
                if let first = pinned[id], first != certificate.boxPublicKey {
                    changed.insert(id)
                } else {
                    keys[id] = certificate.boxPublicKey
                }
            }
            keys[own.id] = own.key
            return (keys, changed)
        }

        /// The rotation this device published is the one it now stands on: a
        /// second record at the same epoch, signed by the authority before (which
        /// whoever held the old passphrase also holds), must not be taken silently.
        private func checkAdopted(_ prepared: KeyRotation.Prepared) throws {
            let state = try SyncStore.requiredState(store)
            guard state.keyEpoch == prepared.record.epoch, state.keyEpochRecord == ObjectHash.of(prepared.recordBytes)
            else {
                throw SyncError(
                    .integrity,
                    "another rotation record to key epoch \(prepared.record.epoch) was taken instead of the one "
                        + "written here: someone who holds the authority before it (the old sync passphrase) made a "
                        + "second one; the old keys' objects were kept. Check 'authcat sync devices', then rotate "
                        + "again with --new-recovery-key from a device you trust")
            }
        }
    }

    /// Where this device stands once synced: its position in the chain, the
    /// devices it knows, and each one's cut point (the last object it read of
    /// it, and its own last batch).
    static func rotationStart(
        _ store: SyncStore
    ) throws -> (position: RotationChain.Position, devices: Set<String>, cuts: [RotationRecord.Cut]) {
        guard let state = try store.state(), let authority = state.authorityPublicKey else { throw SyncError.syncOff }
        let peers = try store.reading { try $0.peers() }.filter { $0.deviceID != state.deviceID }
        let cuts =
            peers.map { RotationRecord.Cut(device: $0.deviceID, sequence: $0.sequence, chainHash: $0.chainHash) }
            + [RotationRecord.Cut(device: state.deviceID, sequence: state.nextSequence - 1, chainHash: state.chainHead)]
        return (
            RotationChain.Position(epoch: state.keyEpoch, recordHash: state.keyEpochRecord, authority: authority),
            Set(peers.map(\.deviceID) + [state.deviceID]), cuts
        )
    }

    /// Every account of this vault, deleted ones too: a device revoked now
    /// could read each (see `ExposedAccount`). Held: created by the last sync
    /// known here of one of the revoked devices (`lastSyncs`), when this device
    /// last read one of its batches, which is no earlier than that device wrote
    /// it. Its join is known here only as late as its first batch read, so an
    /// account deleted before then counts as held too: it may have been there.
    func exposedAccounts(lastSyncs: [Date]) throws -> [ExposedAccount] {
        try vault.accounts(includingDeleted: true)
            .map { account in
                ExposedAccount(
                    issuer: account.issuer, name: account.name, deleted: account.deletedAt != nil,
                    held: lastSyncs.contains { account.createdAt <= $0 })
            }
            .sorted {
                ($0.held ? 0 : 1, $0.deleted ? 1 : 0, $0.issuer, $0.name)
                    < ($1.held ? 0 : 1, $1.deleted ? 1 : 0, $1.issuer, $1.name)
            }
    }
}
