import Foundation

/// What one pass over the remote reads and writes under: the remote vault
/// and this device in it, the key epoch and its keys, and the remote as
/// listed once at the sync's start, seen from that epoch. A sync makes one,
/// and one more for the epoch it leaves when it adopts a rotation; no stage
/// changes it.
struct SyncScope {
    let keys: SyncKeys
    let vaultID: String
    let deviceID: String
    /// The key epoch this pass reads and writes (`keys` are its keys).
    let epoch: Int64
    let listing: RemoteListing

    init(keys: SyncKeys, state: SyncStore.StateRecord, listing: RemoteListing) {
        self.keys = keys
        vaultID = state.remoteVaultID
        deviceID = state.deviceID
        epoch = state.keyEpoch
        self.listing = listing
    }

    /// The name of a §5.1 object of this pass's epoch.
    func name(_ name: RemoteLayout.Name) -> String {
        EpochLayout.inEpoch(epoch, name)
    }

    /// The objects of other devices in this vault, by device id.
    var otherDevices: [(String, RemoteListing.DeviceObjects)] {
        (listing.devices[vaultID] ?? [:]).filter { $0.key != deviceID }.sorted { $0.key < $1.key }
    }

    /// This device's objects as listed.
    var ownObjects: RemoteListing.DeviceObjects {
        listing.devices[vaultID]?[deviceID] ?? RemoteListing.DeviceObjects()
    }

    /// Seals a change set of this device for its object name.
    func seal(_ changes: ChangeSet, name: String) throws -> Data {
        try SealedObject.seal(
            try changes.encoded(), key: keys.objectKey, vault: vaultID, device: deviceID, name: name)
    }
}
