import AuthCatEssentials
import Foundation

extension RemoteCheck {
    /// Compares the remote vault's manifest with the copy this device keeps
    /// (its hash, docs/FORMAT.md §5.7). The manifest is plain JSON, so anyone
    /// who can write to the remote could change it, say to weaken its key
    /// parameters for the next device that joins; a changed manifest is
    /// reported as a rejected object for as long as it stays changed, and its
    /// contents are never used. Downloaded only when its listed version
    /// changed, so a sync with nothing new is still one listing.
    func checkManifest(findings: inout ObjectFindings) async throws {
        let store = resources.store
        let name = RemoteLayout.manifest(scope.vaultID)
        guard let state = try store.state(), !findings.isKnownRejected(name) else { return }
        let listed = scope.listing.versions[name]
        if state.manifestHash != nil, listed != nil, listed == state.manifestVersion { return }
        let data: Data
        do {
            guard let read = try await resources.remote.get(name) else { return }
            data = read
        } catch let RemoteError.objectRefused(_, reason) {
            // Too large or not a plain file: reported like a changed manifest, and the sync goes on.
            findings.refused(name, reason: reason)
            return
        }
        let hash = ObjectHash.of(data)
        // Recorded on every path: a manifest put back ends a rejection remembered for the bytes it replaced.
        let knownRejected = findings.isKnownRejected(name, recordingRead: data)
        guard let known = state.manifestHash else {
            // A state from before the copy was kept: the manifest found now becomes the copy.
            try store.updateState {
                $0.manifestHash = hash
                $0.manifestVersion = listed
            }
            return
        }
        guard hash == known else {
            let manifest = try? KeyManifest.decode(data, expectedVaultID: scope.vaultID)
            // A rotation or passphrase change on another device, which this device has
            // followed: a newer generation at its own position, signed by the authority it pinned.
            if let authority = state.authorityPublicKey, let manifest,
                try manifest.isAcceptable(
                    at: RotationChain.Position(
                        epoch: state.keyEpoch, recordHash: state.keyEpochRecord, authority: authority),
                    vaultID: scope.vaultID, afterGeneration: state.manifestGeneration)
            {
                try store.updateState {
                    $0.manifestHash = hash
                    $0.manifestVersion = listed
                    $0.manifestGeneration = manifest.generationNumber
                }
                return
            }
            if !knownRejected { findings.issue(.rejected, name, Self.manifestRejection(manifest, state: state)) }
            return
        }
        if listed != state.manifestVersion { try store.updateState { $0.manifestVersion = listed } }
    }

    /// Why a changed manifest is not used: an older one put back (by its
    /// claims, which are reported, never believed), or one this device
    /// cannot check.
    private static func manifestRejection(_ manifest: KeyManifest?, state: SyncStore.StateRecord) -> String {
        if let manifest, manifest.epoch < state.keyEpoch || manifest.generationNumber < state.manifestGeneration {
            return "a rollback of the manifest: the remote's manifest says key epoch \(manifest.epoch), generation "
                + "\(manifest.generationNumber), older than the newest this device accepted (key epoch "
                + "\(state.keyEpoch), generation \(state.manifestGeneration)); it is not used. Put back the newest "
                + "manifest, or change the sync passphrase from a device that syncs, which writes a new one"
        }
        // A device from before the authority cannot tell a passphrase change from tampering.
        let unpinned =
            state.authorityPublicKey == nil
            ? ". If its passphrase was changed on another device, this device joined before it could "
                + "check such a change: type the new passphrase here once with 'authcat sync passphrase "
                + "change' (the new passphrase may be the same)"
            : ""
        return "the manifest changed since this device joined the remote vault (its key parameters "
            + "or wrapped keys were rewritten) and is not signed by the authority this device "
            + "knows; it is not used. Put back the original manifest" + unpinned
    }
}
