import AuthCatCore
import Foundation

/// What one sync knows and has done so far.
final class SyncRun {
    let keys: SyncKeys
    let vaultID: String
    let deviceID: String
    let listing: RemoteListing
    let progress: ((SyncProgress) -> Void)?
    /// Why preferences arriving in this sync changed, decided once at its start.
    let preferenceReason: SyncPreferenceChange.Reason
    var report = SyncReport()
    /// This device's batches written during this run, for compaction.
    var writtenBatches: [Int64] = []
    /// Set when this device's own objects were lost on the remote: a fresh
    /// snapshot lets the other devices step over the hole.
    var forceSnapshot = false
    /// Objects rejected by earlier syncs, by name.
    var rejectedBefore: [String: SyncRejectedRecord] = [:]

    init(keys: SyncKeys, state: SyncStateRecord, listing: RemoteListing, progress: ((SyncProgress) -> Void)?) {
        self.keys = keys
        vaultID = state.remoteVaultID
        deviceID = state.deviceID
        self.listing = listing
        self.progress = progress
        if state.importedOnce {
            preferenceReason = .serverChange
        } else {
            preferenceReason = state.previousRemoteVaultID == nil ? .initialSync : .accountChange
        }
    }

    func issue(_ kind: SyncIntegrityIssue.Kind, _ subject: String, _ detail: String) {
        report.issues.append(SyncIntegrityIssue(kind: kind, subject: subject, detail: detail))
    }

    /// Whether `name` was rejected before and is listed unchanged: it is
    /// skipped, neither downloaded nor reported again.
    func isKnownRejected(_ name: String) -> Bool {
        guard let known = rejectedBefore[name] else { return false }
        return listing.sizes[name] == known.size
    }

    /// The objects of other devices in this vault, by device id.
    var otherDevices: [(String, RemoteListing.DeviceObjects)] {
        (listing.devices[vaultID] ?? [:]).filter { $0.key != deviceID }.sorted { $0.key < $1.key }
    }

    /// This device's objects as listed.
    var ownObjects: RemoteListing.DeviceObjects {
        listing.devices[vaultID]?[deviceID] ?? RemoteListing.DeviceObjects()
    }
}
