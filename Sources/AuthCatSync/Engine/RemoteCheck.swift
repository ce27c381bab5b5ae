import AuthCatCore
import AuthCatEssentials
import Foundation

/// The stage that checks, from the one listing, that the remote still holds
/// this vault as this device left it, before anything is imported: the
/// markers of another device that turned sync off or deleted the remote
/// data, the manifest, this device's own chain, and the devices the
/// authority certified.
///
/// A marker is believed only if it opens with this vault's key. A missing
/// manifest is never taken to mean "delete everything": sync just stops.
struct RemoteCheck {
    let resources: SyncResources
    let scope: SyncScope

    /// What the check found that the rest of the sync acts on.
    struct Outcome {
        /// This device's own objects were lost on the remote (a rollback):
        /// a fresh snapshot lets the other devices step over the hole.
        var ownObjectsLost = false
    }

    /// Checks the remote, reporting what is wrong with single objects in
    /// `findings`. Throws `SyncError` when the remote must not be used at all.
    func check(
        _ state: SyncStore.StateRecord, listed objects: [RemoteObject], findings: inout ObjectFindings
    ) async throws -> Outcome {
        try await checkMarkers(findings: &findings)
        try await checkVault(findings: &findings)
        try await recordCertifiedDevices(listed: objects)
        return Outcome(ownObjectsLost: ownObjectsLost(state, findings: &findings))
    }

    private var store: SyncStore { resources.store }
    private var remote: CountingRemote { resources.remote }

    /// Stops when another device deleted the remote data or turned sync off everywhere.
    private func checkMarkers(findings: inout ObjectFindings) async throws {
        let listing = scope.listing
        let vault = scope.vaultID
        let markers = MarkerCheck(
            remote: remote, vaultID: vault, objectKey: scope.keys.objectKey,
            // A copy serves: whether a marker is a known rejection depends only on what the findings started with.
            isKnownRejected: { [findings] in findings.isKnownRejected($0) })
        if listing.deletedMarkers.contains(vault),
            try await markers.opens(RemoteLayout.deletedMarker(vault), .deleted, unopened: { findings.record($0) })
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
        if let marker = try await markers.newestDisabledGeneration(
            in: listing, above: known, unopened: { findings.record($0) })
        {
            try store.updateState {
                $0.enabled = false
                $0.disabledEverywhere = true
                $0.disabledGeneration = marker.generation
            }
            throw SyncError.disabledElsewhere(remote.displayLocation)
        }
    }

    /// Stops when the remote holds another vault, or none; checks the manifest when it is there.
    private func checkVault(findings: inout ObjectFindings) async throws {
        let listing = scope.listing
        let vault = scope.vaultID
        if listing.manifests.contains(vault) {
            if try store.state()?.vaultMismatch == true { try store.updateState { $0.vaultMismatch = false } }
            try await checkManifest(findings: &findings)
            return
        }
        if !listing.manifests.isEmpty {
            try store.updateState { $0.vaultMismatch = true }
            throw SyncError.vaultMismatch(remote.displayLocation)
        }
        // Only a name was ever behind a mismatch: it ends when that name is gone, as any planted object's report.
        if try store.state()?.vaultMismatch == true { try store.updateState { $0.vaultMismatch = false } }
        guard listing.hasObjects(of: vault) else { throw SyncError.noVaultOnRemote(remote.displayLocation) }
        findings.issue(
            .rejected, RemoteLayout.manifest(vault),
            "the manifest is missing; devices can sync, but no new device can join")
    }

    /// Whether this device's newest object on the remote is older than the
    /// newest it wrote (reported as a rollback).
    private func ownObjectsLost(_ state: SyncStore.StateRecord, findings: inout ObjectFindings) -> Bool {
        let own = scope.ownObjects.newest
        guard own < state.nextSequence - 1 else { return false }
        findings.issue(
            .rollback, scope.deviceID,
            "this device's newest object on the remote is number \(own), but it wrote number \(state.nextSequence - 1)")
        return true
    }
}
