import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncEngine {
    /// Turns sync off on this device (always, first), keeping all local data
    /// and history; a later `enable` on the same remote vault exports what
    /// changed meanwhile. Also works after sync was turned off here (the
    /// service opens the engine for it then), for the remote part alone.
    ///
    /// - Parameters:
    ///   - everywhere: also leave an authenticated marker on the remote, so
    ///     every other device turns its sync off at its next contact.
    ///   - deleteRemote: delete every remote object of this vault, leaving an
    ///     authenticated deletion marker so other devices report `remote deleted`
    ///     and stop; the next `enable` anywhere makes a new remote vault.
    /// - Throws: `SyncError` if the remote part failed; sync is off here anyway.
    ///   The caller holds the run lock.
    func disable(everywhere: Bool, deleteRemote: Bool) async throws {
        let state = try store.updateState { $0.enabled = false }
        guard everywhere || deleteRemote else { return }
        do {
            let keys = try SyncKeys.unsealLocally(
                state.sealedMasterKey, vault: vault, remoteVaultID: state.remoteVaultID,
                deviceID: state.deviceID)
            if deleteRemote {
                try await deleteRemoteVault(state, keys: keys)
            } else {
                try await disableEverywhere(state, keys: keys)
            }
        } catch {
            throw SyncError.wrapping(error)
        }
    }

    /// Writes the next generation of the "disabled everywhere" marker, then
    /// removes older ones. The marker stays when sync is turned on again, so
    /// a device that slept through both still turns off at its next contact.
    ///
    /// The generation follows the newest marker that opens with the key (one
    /// that does not is left alone and never counted) and the newest this
    /// device knows; a number that would not fit the name is an error.
    private func disableEverywhere(_ state: SyncStore.StateRecord, keys: SyncKeys) async throws {
        let listing = RemoteListing(
            try await remote.list(prefix: RemoteLayout.folder(state.remoteVaultID) + "/"), epoch: state.keyEpoch)
        // A marker rejected before and unchanged is not downloaded again.
        let markers = MarkerCheck(
            remote: remote, vaultID: state.remoteVaultID, objectKey: keys.objectKey,
            isKnownRejected: MarkerCheck.knownRejected(
                try SyncStore.RejectedRecord.byName(in: store), listed: listing.versions))
        let newest = try await markers.newestDisabledGeneration(in: listing, above: 0)?.generation ?? 0
        let generation = try RemoteLayout.checkedNumber(
            max(newest, Marker.trustedGeneration(state.disabledGeneration)) + 1)
        let name = EpochLayout.inEpoch(
            state.keyEpoch, .disabledMarker(vault: state.remoteVaultID, generation: generation))
        try await remote.put(name, data: try marker(.disabled, name: name, state, keys))
        try store.updateState { $0.disabledGeneration = generation }
        let older = (listing.disabledMarkers[state.remoteVaultID] ?? [:]).filter { $0.key <= newest }
        for oldName in older.values.sorted() {
            try await remote.delete(oldName)
        }
    }

    /// The deletion marker goes first, so that a deletion cut off halfway
    /// still tells the other devices to stop rather than to upload again.
    private func deleteRemoteVault(_ state: SyncStore.StateRecord, keys: SyncKeys) async throws {
        let markerName = RemoteLayout.deletedMarker(state.remoteVaultID)
        try await remote.put(markerName, data: try marker(.deleted, name: markerName, state, keys))
        let objects = try await remote.list(prefix: RemoteLayout.folder(state.remoteVaultID) + "/")
        // The manifest last: while it exists, the vault is still recognisably this one.
        let manifest = RemoteLayout.manifest(state.remoteVaultID)
        for object in objects where object.name != manifest {
            try await remote.delete(object.name)
        }
        try await remote.delete(manifest)
    }

    /// A sealed marker of `kind` written by this device.
    private func marker(
        _ kind: Marker.Kind, name: String, _ state: SyncStore.StateRecord, _ keys: SyncKeys
    ) throws -> Data {
        let marker = Marker(
            vault: state.remoteVaultID, kind: kind, device: state.deviceID, deviceName: vault.identity.deviceName,
            createdAt: clock.now().unixMilliseconds)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try SealedObject.seal(
            try encoder.encode(marker), key: keys.objectKey, vault: state.remoteVaultID,
            device: Marker.sealingDevice, name: name)
    }
}
