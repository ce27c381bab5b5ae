import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncEngine {
    /// What one sync knows and has done so far.
    final class Run {
        let keys: SyncKeys
        let vaultID: String
        let deviceID: String
        /// The key epoch this run reads and writes (`keys` are its keys).
        let epoch: Int64
        /// Set while reading an epoch this device is leaving: only what the
        /// rotation's cut points allow is accepted (`EpochCut`).
        let cut: EpochCut?
        let listing: RemoteListing
        let progress: ((SyncProgress) -> Void)?
        /// Why preferences arriving in this sync changed, decided once at its start.
        let preferenceReason: SyncReport.PreferenceChange.Reason
        /// Whether nothing was imported from this remote vault yet (a device that just joined).
        let isFirstImport: Bool
        var report = SyncReport()
        /// This device's batches written during this run, for compaction.
        var writtenBatches: [Int64] = []
        /// Set when this device's own objects were lost on the remote: a fresh
        /// snapshot lets the other devices step over the hole.
        var forceSnapshot = false
        /// Objects rejected by earlier syncs, by name.
        var rejectedBefore: [String: SyncStore.RejectedRecord] = [:]
        /// The version of each object this run read, by name, to remember a rejection by.
        var readVersions: [String: String] = [:]
        /// Objects rejected before that this run read and found changed.
        var changedSinceRejected: Set<String> = []
        /// Objects rejected in this run only because their clocks are ahead of
        /// this device's: not remembered as rejected, so the next sync reads them
        /// again (this device's clock may be the one that is wrong, and be set
        /// right later). They are reported as standing issues meanwhile.
        var rereadEachSync: Set<String> = []

        init(
            keys: SyncKeys, state: SyncStore.StateRecord, listing: RemoteListing,
            progress: ((SyncProgress) -> Void)?, cut: EpochCut? = nil
        ) {
            self.keys = keys
            vaultID = state.remoteVaultID
            deviceID = state.deviceID
            epoch = state.keyEpoch
            self.cut = cut
            self.listing = listing
            self.progress = progress
            isFirstImport = !state.importedOnce
            if state.importedOnce {
                preferenceReason = .serverChange
            } else {
                preferenceReason = state.previousRemoteVaultID == nil ? .initialSync : .accountChange
            }
        }

        /// Takes in what following the rotation chain found before this run:
        /// the left epoch's imports and issues, and the rotation records not believed.
        func carry(_ followed: SyncEngine.Followed) {
            if let left = followed.leftEpochReport {
                report.importedChanges += left.importedChanges
                report.preferenceChanges += left.preferenceChanges
                report.issues += left.issues
            }
            for (name, reason) in followed.rejected where !isKnownRejected(name) {
                readVersions[name] = listing.versions[name] ?? "rotation"
                issue(.rejected, name, "a rotation record that is not adopted: \(reason)")
            }
            for epoch in followed.conflicts {
                issue(
                    .rejected, "key epoch \(epoch)",
                    "two valid rotation records move the vault to this epoch; the one with the smaller digest was taken"
                )
            }
        }

        /// The name of a §5.1 object of this run's epoch.
        func name(_ name: RemoteLayout.Name) -> String {
            EpochLayout.inEpoch(epoch, name)
        }

        func issue(_ kind: SyncReport.IntegrityIssue.Kind, _ subject: String, _ detail: String) {
            report.issues.append(SyncReport.IntegrityIssue(kind: kind, subject: subject, detail: detail))
        }

        /// Reports that `device`'s objects after `sequence - 1` wait behind the
        /// rejected `name`, unless it is the device's newest: never silently.
        func blocked(_ device: String, at name: String, sequence: Int64, newest: Int64) {
            guard sequence < newest else { return }
            issue(
                .blocked, device,
                "its objects after number \(sequence - 1) (up to \(newest)) wait behind the rejected \(name); "
                    + "they are read once it is repaired, or when that device writes a snapshot (compacts)")
        }

        /// Whether `name` was rejected before and is unchanged: it is skipped
        /// and not reported again. Decided from the listed version without a
        /// download; when the remote lists none, from `data` once read (nil
        /// before: not known yet).
        func isKnownRejected(_ name: String, data: Data? = nil) -> Bool {
            guard let known = rejectedBefore[name], listing.sizes[name] != nil else { return false }
            if let listed = listing.versions[name] { return listed == known.version }
            guard let data else { return false }
            if Self.contentVersion(data) == known.version { return true }
            changedSinceRejected.insert(name)
            return false
        }

        /// Reports an object the remote refused to read (larger than
        /// `RemoteObject.maximumSize`, or not a plain file) as rejected,
        /// remembered by what the listing says since its bytes were not read.
        func refused(_ name: String, reason: String) {
            readVersions[name] = listing.versions[name] ?? "refused-\(listing.sizes[name] ?? 0)"
            issue(.rejected, name, "not read: \(reason)")
        }

        /// What identifies this object's content: its listed version, else a hash of its bytes.
        func version(of name: String, data: Data) -> String {
            listing.versions[name] ?? Self.contentVersion(data)
        }

        static func contentVersion(_ data: Data) -> String {
            "sha256:" + ObjectHash.of(data)
        }

        /// Whether a rejection remembered before still holds after this run.
        func stillRejected(_ known: SyncStore.RejectedRecord) -> Bool {
            guard listing.sizes[known.name] != nil, !changedSinceRejected.contains(known.name) else { return false }
            return listing.versions[known.name].map { $0 == known.version } ?? true
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
}
