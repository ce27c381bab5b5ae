import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncEngine {
    /// Checks, from the one listing, that the remote still holds this vault and
    /// that no other device turned sync off or deleted the remote data.
    ///
    /// A marker is believed only if it opens with this vault's key. A missing
    /// manifest is never taken to mean "delete everything": sync just stops.
    func checkRemote(_ run: SyncEngine.Run) async throws {
        let listing = run.listing
        let vault = run.vaultID
        let markers = markerCheck(run)
        if listing.deletedMarkers.contains(vault), try await markers.opens(RemoteLayout.deletedMarker(vault), .deleted)
        {
            try store.updateState {
                $0.enabled = false
                $0.remoteDeleted = true
            }
            throw SyncError.remoteDeleted(remote.displayLocation)
        }
        // Compared by generation, so a device asleep while sync was turned off
        // everywhere and on again elsewhere still turns off; no download unless
        // newer. A newer marker that does not open is reported and passed over.
        let known = try store.state().map { Marker.trustedGeneration($0.disabledGeneration) } ?? 0
        if let marker = try await markers.newestDisabledGeneration(in: listing, above: known) {
            try store.updateState {
                $0.enabled = false
                $0.disabledEverywhere = true
                $0.disabledGeneration = marker.generation
            }
            throw SyncError.disabledElsewhere(remote.displayLocation)
        }
        if listing.manifests.contains(vault) {
            if try store.state()?.vaultMismatch == true { try store.updateState { $0.vaultMismatch = false } }
            try await checkManifest(run)
            return
        }
        if !listing.manifests.isEmpty {
            try store.updateState { $0.vaultMismatch = true }
            throw SyncError.vaultMismatch(remote.displayLocation)
        }
        // Only a name was ever behind a mismatch: it ends when that name is gone, as any planted object's report.
        if try store.state()?.vaultMismatch == true { try store.updateState { $0.vaultMismatch = false } }
        guard listing.hasObjects(of: vault) else { throw SyncError.noVaultOnRemote(remote.displayLocation) }
        run.issue(
            .rejected, RemoteLayout.manifest(vault),
            "the manifest is missing; devices can sync, but no new device can join")
    }

    /// Reads markers with this run's key, reporting each that does not open
    /// once (an object rejected before and unchanged is not read again).
    func markerCheck(_ run: SyncEngine.Run) -> MarkerCheck {
        MarkerCheck(
            remote: remote, vaultID: run.vaultID, objectKey: run.keys.objectKey,
            isKnownRejected: { run.isKnownRejected($0) },
            rejected: { name, data, why in
                run.readVersions[name] = run.version(of: name, data: data)
                if !run.isKnownRejected(name, data: data) { run.issue(.rejected, name, why) }
            },
            refused: run.refused(_:reason:))
    }

    /// A sealed marker of `kind` written by this device.
    static func sealedMarker(
        _ kind: Marker.Kind, name: String, keys: SyncKeys, vaultID: String, deviceID: String,
        vault: Vault, now: Date
    ) throws -> Data {
        let marker = Marker(
            vault: vaultID, kind: kind, device: deviceID, deviceName: vault.identity.deviceName,
            createdAt: now.unixMilliseconds)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try SealedObject.seal(
            try encoder.encode(marker), key: keys.objectKey, vault: vaultID,
            device: Marker.sealingDevice, name: name)
    }
}
