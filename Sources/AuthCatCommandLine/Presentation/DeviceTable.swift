import AuthCatEssentials
import AuthCatSync
import Foundation

/// The devices of the remote vault as `sync devices` and `sync status` show
/// them: one line each, name, short id, when it joined, first and last seen,
/// and whether it is this device or revoked.
///
/// A name is a device's own word, so it never stands alone: its short id is
/// beside it, anything in it that would not show is written out as a code
/// point (`DeviceDirectory.Device.displayName`), and a name too like another
/// device's (`DeviceName.isConfusable`) is marked, so that no device passes
/// for another.
enum DeviceTable {
    static func lines(_ devices: [DeviceDirectory.Device]) -> [String] {
        let seen = { (date: Date?) in date.map(Timestamp.text) ?? "-" }
        let header = ["NAME", "ID", "JOINED", "FIRST SEEN", "LAST SEEN", ""]
        return TextTable.lines(
            [header]
                + devices.map { device in
                    let marks = [
                        device.isThisDevice ? "this device" : nil, device.isRevoked ? "revoked" : nil,
                        looksLikeAnother(device, among: devices) ? "name like another's" : nil,
                    ]
                    return [
                        device.displayName, device.shortID, seen(device.joinedAt), seen(device.firstSeen),
                        seen(device.lastSeen), marks.compactMap { $0 }.joined(separator: ", "),
                    ]
                })
    }

    /// Whether another device's name is the same as, or too like, this one's.
    private static func looksLikeAnother(
        _ device: DeviceDirectory.Device, among devices: [DeviceDirectory.Device]
    )
        -> Bool
    {
        guard let name = device.name else { return false }
        return devices.contains { other in
            other.id != device.id && other.name.map { DeviceName.isConfusable($0, with: name) } == true
        }
    }
}
