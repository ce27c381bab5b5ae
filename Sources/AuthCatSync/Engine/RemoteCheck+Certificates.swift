import AuthCatCore
import Foundation

extension RemoteCheck {
    /// Records the devices the pinned authority certified, from the
    /// `key-<device>` objects in this sync's listing (written when each
    /// joined), so that `sync devices` lists, and `sync rotate --revoke`
    /// names, a device that joined but never wrote a batch: it holds the
    /// master key all the same. Each certificate is read once; one the
    /// authority did not sign (planted by the remote) adds no device, and
    /// one the remote fails to return does not fail the sync. Its box key is
    /// kept as first read: a rotation seals to no other key for that device.
    func recordCertifiedDevices(listed objects: [RemoteObject]) async throws {
        let store = resources.store
        let state = try SyncStore.requiredState(store)
        // A device that joined before the authority existed has nothing to check a certificate with.
        guard let authority = state.authorityPublicKey else { return }
        let known = Set(try store.reading { try $0.certifiedDevices() }.map(\.deviceID))
        for object in objects {
            guard case .deviceKey(let vault, let device) = EpochLayout.parse(object.name), vault == scope.vaultID,
                device != scope.deviceID, !known.contains(device)
            else { continue }
            // Only the directory needs it: a read that fails is tried again at the next sync.
            guard let data = try? await resources.remote.get(object.name),
                let certificate = try? DeviceCertificate.open(
                    data, name: object.name, vault: vault, authority: authority)
            else { continue }
            let record = SyncStore.CertifiedDeviceRecord(
                deviceID: device, firstSeen: resources.clock.now().unixMilliseconds,
                boxPublicKey: certificate.boxPublicKey)
            try store.transaction { try $0.save(record) }
        }
    }
}
