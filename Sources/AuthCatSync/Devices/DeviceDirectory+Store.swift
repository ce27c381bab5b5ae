import AuthCatCore
import Foundation

extension DeviceDirectory {
    /// The devices `sync.sqlite` knows: this one, every other device one of
    /// whose objects a sync read (named by the newest one), every device whose
    /// certificate the authority signed (no name before its first batch), and
    /// which of them a proved rotation revoked. A device folder whose objects
    /// never opened, or a certificate the authority did not sign, is not a
    /// device: anyone who can write to the remote can make one.
    ///
    /// - Parameter vaultDeviceName: this device's name when the state
    ///   predates names (the vault's own device name).
    static func read(
        from store: SyncStore, state: SyncStore.StateRecord, vaultDeviceName: String
    ) throws -> DeviceDirectory {
        let (peers, certified, revoked) = try store.reading { db in
            (try db.peers(), try db.certifiedDevices(), try db.revocations())
        }
        let revokedIDs = Set(revoked.map(\.deviceID))
        let read = peers.filter { $0.deviceID != state.deviceID && ($0.sequence > 0 || $0.firstSeen != nil) }
        var devices = read.map { peer in
            Device(
                id: peer.deviceID, name: peer.name, firstSeen: peer.firstSeen.map(Date.init(unixMilliseconds:)),
                lastSeen: peer.lastSeen.map(Date.init(unixMilliseconds:)),
                isRevoked: revokedIDs.contains(peer.deviceID),
                joinedAt: peer.joinedAt.map(Date.init(unixMilliseconds:)))
        }
        // Certified (or revoked) but never read writing: joined with nothing to send, yet it held the key.
        var listed = Set(read.map(\.deviceID) + [state.deviceID])
        for device in certified where listed.insert(device.deviceID).inserted {
            devices.append(
                Device(
                    id: device.deviceID, name: nil, firstSeen: Date(unixMilliseconds: device.firstSeen),
                    isRevoked: revokedIDs.contains(device.deviceID)))
        }
        for device in revoked where listed.insert(device.deviceID).inserted {
            devices.append(Device(id: device.deviceID, name: nil, isRevoked: true))
        }
        devices.append(
            Device(
                id: state.deviceID, name: state.deviceName ?? vaultDeviceName,
                firstSeen: state.joinedAt.map(Date.init(unixMilliseconds:)),
                lastSeen: state.lastSuccessfulSync.map(Date.init(unixMilliseconds:)), isThisDevice: true,
                isRevoked: revokedIDs.contains(state.deviceID),
                joinedAt: state.joinedAt.map(Date.init(unixMilliseconds:))
            ))
        return DeviceDirectory(devices: devices)
    }
}
