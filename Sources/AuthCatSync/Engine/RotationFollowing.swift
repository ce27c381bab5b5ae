import AuthCatCore
import AuthCatEssentials
import Foundation

/// The stage that follows the rotation records on the remote from the key
/// epoch this device holds (`RotationChain`, docs/FORMAT.md §5.9), before
/// anything is imported or exported. It leaves the state and keys of the
/// epoch the rest of the sync works in.
struct RotationFollowing {
    let resources: SyncResources
    let progress: ((SyncProgress) -> Void)?

    /// What following the rotation chain at the start of a sync left.
    struct Followed {
        var state: SyncStore.StateRecord
        var keys: SyncKeys
        /// What was imported from the epoch this device left, up to the cut
        /// points, and what was found wrong there.
        var leftEpoch: (imported: SyncImporter.Imported, issues: [SyncReport.IntegrityIssue])?
        /// Rotation records that failed a check (never believed), by name, with why.
        var rejected: [(name: String, reason: String)] = []
        /// Epochs at which two valid records were found (the smaller digest was taken).
        var conflicts: [Int64] = []
    }

    /// Follows the rotation records from the epoch this device holds:
    ///
    /// - a newer epoch sealed to this device is adopted without a question:
    ///   the epoch it leaves is read up to the rotation's signed cut points
    ///   (`EpochCut`), then every record this device knows is marked for export,
    ///   so its first batch of the new epoch holds them all;
    /// - a rotation that revoked this device stops its sync for good (`revoked`);
    /// - a newer epoch listed but not proved from here (withheld or forged)
    ///   stops the sync before anything is written.
    func follow(_ state: SyncStore.StateRecord, keys: SyncKeys, objects: [RemoteObject]) async throws -> Followed {
        let (vault, store) = (resources.vault, resources.store)
        var followed = Followed(state: state, keys: keys)
        let newestListed = EpochLayout.newestListedEpoch(objects.map(\.name), vault: state.remoteVaultID)
        guard newestListed > state.keyEpoch else { return followed }
        guard let authority = state.authorityPublicKey, let sealedDeviceKey = state.sealedDeviceKey else {
            throw Self.leftOut(epoch: newestListed)
        }
        let deviceKeys = try DeviceKeys.unsealLocally(
            sealedDeviceKey, sealingKey: try vault.derivedKey(context: DeviceKeys.localContext),
            remoteVaultID: state.remoteVaultID, deviceID: state.deviceID)
        let chain = RotationChain(remote: resources.remote, vault: state.remoteVaultID)
        let result = try await chain.follow(
            from: RotationChain.Position(epoch: state.keyEpoch, recordHash: state.keyEpochRecord, authority: authority),
            listing: objects, device: state.deviceID, deviceKeys: deviceKeys)
        followed.rejected = result.rejected
        followed.conflicts = result.conflicts
        switch result.outcome {
        case .current:
            return followed
        case .withheld(let listed, let proved):
            throw SyncError(
                .integrity,
                "the remote lists key epoch \(listed), but no rotation record this device can check leads there "
                    + "from epoch \(proved); sync stopped and nothing was written until one does (the remote may "
                    + "be withholding it, or someone without the sync passphrase forged it)",
                cause: UnprovedEpoch(listed: listed, proved: proved))
        case .leftOut(let epoch):
            throw Self.leftOut(epoch: epoch)
        case .revoked(let epoch, _, let recordHash):
            try store.transaction { db in
                var stopped = try db.requiredState()
                stopped.enabled = false
                stopped.revoked = true
                try db.update(stopped)
                // Kept after `sync disable` acknowledges the stop: turning sync on again joins as a new device.
                try db.save(SyncStore.RevocationRecord(deviceID: state.deviceID, epoch: epoch, record: recordHash))
            }
            throw SyncError.revoked(epoch: epoch)
        case .adopted(let position, let newKeys, let record):
            if position.epoch == state.keyEpoch + 1 {
                followed.leftEpoch = try await importLeftEpoch(
                    state, keys: keys, objects: objects, cut: EpochCut(record: record))
            }
            let directory = try DeviceDirectory.read(
                from: store, state: state, vaultDeviceName: vault.identity.deviceName)
            followed.state = try adopt(position, keys: newKeys, revoking: record)
            try recordInHistory(record, thisDevice: state.deviceID, directory: directory)
            followed.keys = newKeys
            return followed
        }
    }

    /// Imports what other devices wrote under the key this device is leaving,
    /// up to the cut points the rotation signed: the rotating device had read
    /// as far, and nothing past a cut (a revoked device writing on) counts.
    private func importLeftEpoch(
        _ state: SyncStore.StateRecord, keys: SyncKeys, objects: [RemoteObject], cut: EpochCut
    ) async throws -> (imported: SyncImporter.Imported, issues: [SyncReport.IntegrityIssue]) {
        let scope = SyncScope(keys: keys, state: state, listing: RemoteListing(objects, epoch: state.keyEpoch))
        var importer = SyncImporter(
            resources: resources, scope: scope, state: state,
            findings: try ObjectFindings(listing: scope.listing, store: resources.store), progress: progress, cut: cut)
        try await importer.importChanges()
        return (importer.imported, importer.findings.issues)
    }

    /// Moves this device's state to the adopted epoch: its key sealed here, the
    /// new authority pinned, a new chain of its own, every other device's
    /// position in the new epoch at its start, and every record it knows
    /// marked for export (what it wrote past its cut would otherwise be lost).
    private func adopt(
        _ position: RotationChain.Position, keys: SyncKeys, revoking record: RotationRecord
    ) throws -> SyncStore.StateRecord {
        try resources.store.transaction { db in
            var state = try db.requiredState()
            state.sealedMasterKey = try keys.sealedLocally(
                vault: resources.vault, remoteVaultID: state.remoteVaultID, deviceID: state.deviceID)
            state.keyEpoch = position.epoch
            state.keyEpochRecord = position.recordHash
            state.authorityPublicKey = position.authority
            state.nextSequence = 1
            state.chainHead = ""
            state.snapshotSequence = 0
            try db.update(state)
            // A certificate the old authority signed proves nothing under the new one: a device the
            // record gives no key (one that joined while it was made) is no device of this epoch. Rows
            // of devices that received the key stay (their certificates were re-issued); the others
            // are checked again, against the new authority, at the next read of their certificates.
            try db.restartChains(keepingCertified: Set(record.keys.map(\.device)).union(record.revoked))
            for device in record.revoked {
                try db.save(
                    SyncStore.RevocationRecord(deviceID: device, epoch: record.epoch, record: position.recordHash))
            }
            return state
        }
    }

    /// Writes the adopted rotation into the vault's history: on the device
    /// that rotated as its own change (`cli`), on the others as received from
    /// it (`sync`), with each device it revoked by id and name. After the
    /// adoption, in a transaction of its own: a kill in between loses the
    /// line, never writes it twice.
    private func recordInHistory(_ record: RotationRecord, thisDevice: String, directory: DeviceDirectory) throws {
        func reference(_ id: String) -> DeviceReference {
            // A device whose objects this one never read has no name here.
            DeviceReference(id: id, name: directory.devices.first(where: { $0.id == id })?.name ?? "unknown")
        }
        let author: HistoryAuthor = record.device == thisDevice ? .cli : .sync(from: reference(record.device))
        try resources.vault.write(author: author) { writer in
            try writer.recordSyncKeyRotation(epoch: record.epoch, revoked: record.revoked.sorted().map(reference))
        }
    }

    /// Why a sync stopped: a newer epoch is listed that no record proves from
    /// here. A rotation goes on past it (it proves its own epoch), so that
    /// planting a forged record cannot stop a revocation.
    struct UnprovedEpoch: Error {
        let listed: Int64
        let proved: Int64
    }

    private static func leftOut(epoch: Int64) -> SyncError {
        SyncError(
            .other,
            "the sync key was rotated (key epoch \(epoch)) without a key for this device, which joined while "
                + "that rotation was under way or before devices had keys of their own; turn sync off here and on "
                + "again with the sync passphrase",
            next: .rejoinSync)
    }
}
