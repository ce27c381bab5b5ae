import AuthCatCore
import Foundation
import GRDB

extension DeviceDirectory {
    /// The devices `sync.sqlite` knows: this one, every other device whose
    /// objects a sync listed (named by its newest batch read), and which of
    /// them a proved rotation revoked.
    ///
    /// - Parameter vaultDeviceName: this device's name when the state
    ///   predates names (the vault's own device name).
    static func read(
        from store: SyncStore, state: SyncStore.StateRecord, vaultDeviceName: String
    ) throws -> DeviceDirectory {
        let (peers, revoked) = try store.read { db in
            (
                try SyncStore.PeerRecord.fetchAll(db),
                Set(try SyncStore.RevocationRecord.fetchAll(db).map(\.deviceID))
            )
        }
        var devices = peers.filter { $0.deviceID != state.deviceID }.map { peer in
            Device(
                id: peer.deviceID, name: peer.name, firstSeen: peer.firstSeen.map(Date.init(unixMilliseconds:)),
                lastSeen: peer.lastSeen.map(Date.init(unixMilliseconds:)), isRevoked: revoked.contains(peer.deviceID))
        }
        devices.append(
            Device(
                id: state.deviceID, name: state.deviceName ?? vaultDeviceName,
                firstSeen: state.joinedAt.map(Date.init(unixMilliseconds:)),
                lastSeen: state.lastSuccessfulSync.map(Date.init(unixMilliseconds:)), isThisDevice: true,
                isRevoked: revoked.contains(state.deviceID)))
        return DeviceDirectory(devices: devices)
    }
}

extension SyncService {
    /// Every device of the remote vault this device joined, as its syncs
    /// found them (nothing is asked of the remote): to list them, or to
    /// resolve a device named on the command line (`DeviceDirectory.resolve`).
    ///
    /// - Throws: the lost state's `SyncError`, or
    ///   `DeviceDirectory.NamingError.noDevices` when sync was never set up.
    public func devices() throws -> DeviceDirectory {
        let standing = look()
        if let lost = standing.lost { throw lost }
        guard let store = standing.store, let record = standing.record else {
            throw DeviceDirectory.NamingError.noDevices
        }
        return try DeviceDirectory.read(from: store, state: record, vaultDeviceName: vault.identity.deviceName)
    }
}
