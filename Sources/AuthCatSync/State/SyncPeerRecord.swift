import Foundation
import GRDB

/// How far this device has read another device's chain of batches.
struct SyncPeerRecord: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "peer"

    /// The device's id on the remote.
    var deviceID: String
    /// The device's id in its own vault, as history names it.
    var vaultDeviceID: String
    var name: String
    /// The newest batch sequence number imported (directly or through a snapshot).
    var sequence: Int64
    /// The hash of that batch, to check the next one continues the chain.
    var chainHash: String
    /// The highest sequence number seen on the remote, imported or not.
    var seenSequence: Int64
    var lastSeen: Int64?
}
