import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncEngine {
    /// Checks, from the one listing, that the remote still holds this vault and
    /// that no other device turned sync off or deleted the remote data.
    ///
    /// A marker is believed only if it opens with this vault's key. A missing
    /// manifest is never taken to mean "delete everything": sync just stops.
    func checkRemote(_ run: SyncRun) async throws {
        let listing = run.listing
        let vault = run.vaultID
        if listing.deletedMarkers.contains(vault), try await markerIsAuthentic(RemoteLayout.deletedMarker(vault), .deleted, run) {
            try store.updateState { $0.enabled = false; $0.remoteDeleted = true }
            throw SyncError.remoteDeleted(remote.displayLocation)
        }
        // Compared by generation, so a device asleep while sync was turned off
        // everywhere and on again elsewhere still turns off; no download unless newer.
        if let marker = listing.newestDisabledMarker(of: vault), marker.generation > (try store.state()?.disabledGeneration ?? 0),
           try await markerIsAuthentic(marker.name, .disabled, run) {
            try store.updateState { $0.enabled = false; $0.disabledEverywhere = true; $0.disabledGeneration = marker.generation }
            throw SyncError.disabledElsewhere(remote.displayLocation)
        }
        if listing.manifests.contains(vault) {
            if try store.state()?.vaultMismatch == true { try store.updateState { $0.vaultMismatch = false } }
            return
        }
        if !listing.manifests.isEmpty {
            try store.updateState { $0.vaultMismatch = true }
            throw SyncError.vaultMismatch(remote.displayLocation)
        }
        guard listing.hasObjects(of: vault) else { throw SyncError.noVaultOnRemote(remote.displayLocation) }
        run.issue(.rejected, RemoteLayout.manifest(vault), "the manifest is missing; devices can sync, but no new device can join")
    }

    /// Whether the marker opens with this vault's key; a forged one is reported.
    func markerIsAuthentic(_ name: String, _ kind: Marker.Kind, _ run: SyncRun) async throws -> Bool {
        guard !run.isKnownRejected(name), let data = try await remote.get(name) else { return false }
        run.readVersions[name] = run.version(of: name, data: data)
        guard !run.isKnownRejected(name, data: data) else { return false }
        do {
            let payload = try SealedObject.open(data, key: run.keys.objectKey, vault: run.vaultID,
                                                device: Marker.sealingDevice, name: name)
            _ = try Marker.decode(payload, vault: run.vaultID, kind: kind)
            return true
        } catch {
            run.issue(.rejected, name, (error as? UserFacingError)?.description ?? "unreadable")
            return false
        }
    }

    /// A sealed marker of `kind` written by this device.
    static func sealedMarker(_ kind: Marker.Kind, name: String, keys: SyncKeys, vaultID: String, deviceID: String,
                             vault: Vault, now: Date) throws -> Data {
        let marker = Marker(vault: vaultID, kind: kind, device: deviceID, deviceName: vault.identity.deviceName,
                            createdAt: now.unixMilliseconds)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try SealedObject.seal(try encoder.encode(marker), key: keys.objectKey, vault: vaultID,
                                     device: Marker.sealingDevice, name: name)
    }
}
