import AuthCatEssentials
import AuthCatSync
import Foundation

/// The devices of the remote vault as `sync devices` and `sync status` show
/// them: one line each, name, id, first and last seen, and whether it is
/// this device or revoked.
enum DeviceTable {
    static func lines(_ devices: [DeviceDirectory.Device]) -> [String] {
        let seen = { (date: Date?) in date.map(Timestamp.text) ?? "-" }
        let header = ["NAME", "ID", "FIRST SEEN", "LAST SEEN", ""]
        return TextTable.lines(
            [header]
                + devices.map { device in
                    let marks = [device.isThisDevice ? "this device" : nil, device.isRevoked ? "revoked" : nil]
                    return [
                        device.displayName, device.id, seen(device.firstSeen), seen(device.lastSeen),
                        marks.compactMap { $0 }.joined(separator: ", "),
                    ]
                })
    }
}
