import AuthCatCore
import AuthCatEssentials
import Foundation

/// One run of `SyncSetup.enable`: the three ways of turning sync on.
struct SetupContext {
    let vault: Vault
    let remote: any Remote
    let remoteURL: String
    let listing: RemoteListing
    let clock: Clock
    /// The id to take when joining or creating; nil for a random one.
    let chosenDeviceID: String?
    /// The remote vault a join joins, as the plan found it.
    let vaultToJoin: String?
    /// The name this device takes.
    let naming: SetupContext.Naming

    /// The name a device takes when sync is turned on.
    struct Naming: Sendable {
        /// Chosen by the user (`--device-name`), validated.
        var chosen: String?
        /// Taken when joining or creating without a chosen name: the host's name, sanitized.
        var fallback: String

        /// The vault's own device name, for callers that choose none (tests, benchmarks).
        init(vault: Vault) {
            self.init(chosen: nil, fallback: DeviceName.sanitized(vault.identity.deviceName))
        }

        init(chosen: String?, fallback: String) {
            self.chosen = chosen
            self.fallback = fallback
        }

        /// The name of a device that joins or creates.
        var forNewDevice: String { chosen ?? fallback }
    }

    /// Turns sync on again for the remote vault this device joined before.
    func resume() async throws -> SyncEnableResult {
        let store = try SyncStore.openOrCreate(in: vault.location)
        guard let state = try store.state() else { throw SyncError(.other, "no sync state to resume") }
        // Proves the stored master key still opens before anything changes.
        let keys = try SyncKeys.unsealLocally(
            state.sealedMasterKey, vault: vault, remoteVaultID: state.remoteVaultID,
            deviceID: state.deviceID)
        let disabled = try await disabledGeneration(state.remoteVaultID, keys: keys, epoch: state.keyEpoch)
        // A name chosen when turning sync on again renames this device, unless another device has it.
        if let chosen = naming.chosen,
            let other = try DeviceDirectory.read(
                from: store, state: state, vaultDeviceName: vault.identity.deviceName
            ).otherDevice(named: chosen)
        {
            throw DeviceDirectory.NamingError.nameTaken(chosen, by: other)
        }
        try store.updateState {
            if let chosen = naming.chosen { $0.deviceName = chosen }
            $0.disabledGeneration = max(Marker.trustedGeneration($0.disabledGeneration), disabled)
            $0.enabled = true
            $0.remoteURL = remoteURL
            $0.remoteDeleted = false
            $0.vaultMismatch = false
            $0.disabledEverywhere = false
        }
        try SyncState.SetupFile.record(try SyncStore.requiredState(store), in: vault.location)
        return SyncEnableResult(
            outcome: .resumed, recoveryKey: nil, remoteVaultID: state.remoteVaultID, deviceID: state.deviceID,
            deviceName: naming.chosen ?? state.deviceName ?? vault.identity.deviceName)
    }

    /// Joins the one vault on the remote; a wrong secret changes nothing.
    func join(secret: SyncSecret?) async throws -> SyncEnableResult {
        guard let secret else { throw SyncError.secretRequired }
        guard let vaultID = vaultToJoin else {
            throw SyncError(.other, "the remote vault's manifest disappeared while joining; try again")
        }
        let deviceID = try chosenDeviceID ?? RemoteLayout.newDeviceID()
        let rewritten = try await finishInterruptedRotation(vaultID, secret: secret, deviceID: deviceID)
        let (data, stored, unlocked) = try await readManifest(vaultID, secret: secret)
        // Only now, with the key, can a deletion marker beside the manifest be told from a planted one.
        if listing.deletedMarkers.contains(vaultID),
            try await MarkerCheck(remote: remote, vaultID: vaultID, objectKey: unlocked.keys.objectKey)
                .opens(RemoteLayout.deletedMarker(vaultID), .deleted)
        {
            throw SyncError(
                .other,
                "the remote vault at \(remote.displayLocation) was deleted by another device, which did not "
                    + "finish; nothing was set up. Finish the deletion on that device, or use another location")
        }
        try await checkNoNewerEpoch(vaultID, joining: stored.epoch)
        let keys = unlocked.keys
        let sealed = try keys.sealedLocally(vault: vault, remoteVaultID: vaultID, deviceID: deviceID)
        // A version 2 vault: the secret just typed opened its authority, so this device pins it and is certified.
        var enrolment: DeviceEnrolment?
        if let opened = unlocked.version2 {
            enrolment = try await DeviceEnrolment.enrol(
                device: deviceID, vaultID: vaultID, authority: opened.authority, vault: vault, remote: remote,
                now: clock.now())
        }
        try saveNewState(
            vaultID: vaultID, deviceID: deviceID, sealedMasterKey: sealed,
            disabledGeneration: try await disabledGeneration(vaultID, keys: keys, epoch: stored.position?.epoch ?? 0),
            manifest: (ObjectHash.of(data), rewritten ? nil : listing.versions[RemoteLayout.manifest(vaultID)]),
            generation: stored.generation, enrolment: enrolment, epoch: stored.position)
        return SyncEnableResult(
            outcome: .joined, recoveryKey: nil, remoteVaultID: vaultID, deviceID: deviceID,
            deviceName: naming.forNewDevice)
    }

    /// Finishes a rotation killed after its record and before its manifest,
    /// which left the manifest at the epoch the record moves past: a device
    /// that joined there would hold a key no device writes with any more, and
    /// none sealed to it. The secret just typed is the right to rotate, so it
    /// is finished here as running `sync rotate` again would, and the newest
    /// epoch is joined; after a passphrase change killed so, only the new
    /// passphrase (or the recovery key) opens the record, and so finishes it.
    /// Returns whether the manifest was rewritten.
    ///
    /// - Throws: `SyncError.wrongPassphrase` when the secret opens neither the
    ///   manifest nor such a record, with nothing written.
    private func finishInterruptedRotation(
        _ vaultID: String, secret: SyncSecret, deviceID: String
    ) async throws -> Bool {
        let before = try await StoredManifest.read(from: remote, vaultID: vaultID).0.epoch
        let finishing = KeyRotation(remote: remote, vaultID: vaultID, device: deviceID, clock: clock)
        return try await finishing.resume(secret: secret) > before
    }

    /// A device joins the newest epoch or none: one that joined an older
    /// epoch (an old manifest put back, newer records withheld in part) would
    /// hold a key nobody writes with any more, and write under it.
    private func checkNoNewerEpoch(_ vaultID: String, joining epoch: Int64) async throws {
        let listed = EpochLayout.newestListedEpoch(
            try await remote.list(prefix: RemoteLayout.folder(vaultID) + "/").map(\.name), vault: vaultID)
        guard listed > epoch else { return }
        throw SyncError(
            .integrity,
            "the remote lists key epoch \(listed), but its manifest is at epoch \(epoch) and no rotation record "
                + "that the secret given can open leads on from there; nothing was set up. If the sync passphrase "
                + "was changed, join with the new one; else the remote may be withholding objects or holding an "
                + "old manifest put back")
    }

    private func readManifest(
        _ vaultID: String, secret: SyncSecret
    ) async throws -> (data: Data, stored: StoredManifest, unlocked: StoredManifest.Unlocked) {
        guard let data = try await remote.get(RemoteLayout.manifest(vaultID)) else {
            throw SyncError(.other, "the remote vault's manifest disappeared while joining; try again")
        }
        let stored = try StoredManifest.decode(data, vaultID: vaultID)
        return (data, stored, try await stored.unlock(with: secret, on: remote))
    }

    /// Makes a new remote vault: master key, manifest, recovery key.
    func create(secret: SyncSecret?, kdf: KDFParameters) async throws -> SyncEnableResult {
        guard case .passphrase(let passphrase) = secret else { throw SyncError.passphraseRequiredToCreate }
        let keys = try SyncKeys.generate()
        let recoveryKey = try RecoveryKey.generate()
        let vaultID = try RemoteLayout.newVaultID()
        let deviceID = try chosenDeviceID ?? RemoteLayout.newDeviceID()
        let authority = try AuthorityKey.generate()
        let manifestKey = try KeyManifest.newManifestKey()
        let origin = RotationChain.Position(epoch: 0, recordHash: "", authority: authority.publicKey)
        let manifest = try KeyManifest.make(
            vaultID: vaultID, epoch: 0, rotation: "", manifestKey: manifestKey, keys: keys,
            authority: authority,
            wraps: try ManifestKeyWraps.make(
                manifestKey, passphrase: passphrase, kdf: kdf, recovery: .key(recoveryKey, anchoredAt: origin),
                vaultID: vaultID),
            createdAt: clock.now())
        let sealed = try keys.sealedLocally(vault: vault, remoteVaultID: vaultID, deviceID: deviceID)
        let manifestData = try manifest.encoded()
        guard try await remote.create(RemoteLayout.manifest(vaultID), data: manifestData) else {
            throw SyncError(
                .other, "another vault appeared on the remote at the same moment; nothing was set up", next: .enableSync
            )
        }
        let enrolment = try await DeviceEnrolment.enrol(
            device: deviceID, vaultID: vaultID, authority: authority, vault: vault, remote: remote, now: clock.now())
        try saveNewState(
            vaultID: vaultID, deviceID: deviceID, sealedMasterKey: sealed,
            manifest: (ObjectHash.of(manifestData), nil), generation: manifest.generationNumber, enrolment: enrolment,
            epoch: nil)
        return SyncEnableResult(
            outcome: .created, recoveryKey: recoveryKey.formatted, remoteVaultID: vaultID, deviceID: deviceID,
            deviceName: naming.forNewDevice)
    }

    /// Starts this device afresh in a remote vault: everything will be stamped
    /// and exported on the first sync, every device's objects imported.
    private func saveNewState(
        vaultID: String, deviceID: String, sealedMasterKey: Data, disabledGeneration: Int64 = 0,
        manifest: (hash: String, version: String?), generation: Int64, enrolment: DeviceEnrolment?,
        epoch: RotationChain.Position?
    ) throws {
        let store = try SyncStore.openOrCreate(in: vault.location)
        let previous = try store.state()
        let earlier = previous.map { $0.remoteVaultID == vaultID ? $0.previousRemoteVaultID : $0.remoteVaultID } ?? nil
        var state = SyncStore.StateRecord(
            enabled: true, remoteURL: remoteURL, remoteVaultID: vaultID, previousRemoteVaultID: earlier,
            deviceID: deviceID, sealedMasterKey: sealedMasterKey, stampCursor: nil,
            disabledGeneration: disabledGeneration,
            manifestHash: manifest.hash, manifestVersion: manifest.version,
            createOnlyEnforced: remote.capabilities.createOnlyEnforced)
        state.deviceName = naming.forNewDevice
        state.joinedAt = clock.now().unixMilliseconds
        state.manifestGeneration = generation
        enrolment?.apply(to: &state)
        if let epoch {
            state.keyEpoch = epoch.epoch
            state.keyEpochRecord = epoch.recordHash
        }
        try store.reset(to: state)
        try SyncState.SetupFile.record(state, in: vault.location)
    }

    /// Turning sync on steps past every "disabled everywhere" marker there is
    /// now that opens with the key. The marker itself stays, for devices that
    /// have not seen it yet; one that does not open counts for nothing.
    /// The newest "disabled everywhere" generation of the key epoch joined;
    /// markers of an older epoch are never obeyed, so never stepped past either.
    private func disabledGeneration(_ vaultID: String, keys: SyncKeys, epoch: Int64) async throws -> Int64 {
        let markers = epoch == 0 ? listing : RemoteListing(try await remote.list(prefix: ""), epoch: epoch)
        return try await MarkerCheck(remote: remote, vaultID: vaultID, objectKey: keys.objectKey)
            .newestDisabledGeneration(in: markers, above: 0)?.generation ?? 0
    }
}
