import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncImporter {
    /// Reads a device's objects after the position `start`, in order, applying
    /// each; stops (reporting why) at the first gap, rejected or unchained object.
    ///
    /// With `deliver`, each object's changes are handed to it instead of
    /// being applied (`persist` is then not used).
    mutating func readChain(
        _ device: String, _ objects: RemoteListing.DeviceObjects, from start: SyncStore.PeerRecord,
        persist: @escaping (SyncStore.Transaction, SyncStore.PeerRecord) throws -> Void = { _, _ in },
        deliver: ((ChangeSet, String) -> Void)? = nil
    ) async throws -> SyncStore.PeerRecord {
        var peer = start
        let newest = objects.newest
        // Snapshots that did not open: the batches after `peer` are read instead while they are there, so
        // that bytes planted under a snapshot's name cannot hold back a device's genuine batches.
        var passedOver: Set<Int64> = []
        func passOver(_ sequence: Int64, snapshot: Bool) -> Bool {
            guard snapshot, objects.batches.contains(peer.sequence + 1) else { return false }
            passedOver.insert(sequence)
            return true
        }
        reading: while peer.sequence < newest {
            guard
                let (name, sequence, isSnapshot) = nextObject(
                    after: peer.sequence, of: device, objects, passingOver: passedOver)
            else {
                findings.issue(
                    .gap, device, "batch \(peer.sequence + 1) is missing (newest is \(newest)); its later changes wait")
                break
            }
            // Rejected before and unchanged: not read or reported again, but its device's later changes wait.
            guard !findings.isKnownRejected(name) else {
                if passOver(sequence, snapshot: isSnapshot) { continue }
                findings.blocked(device, at: name, sequence: sequence, newest: newest)
                break
            }
            // An object listed but gone was removed by its device's compaction: its snapshot comes next time.
            let data: Data
            switch try await fetch(name) {
            case .gone: break reading
            case .refused:
                if passOver(sequence, snapshot: isSnapshot) { continue }
                findings.blocked(device, at: name, sequence: sequence, newest: newest)
                break reading
            case .bytes(let bytes): data = bytes
            }
            guard !findings.isKnownRejected(name, recordingRead: data),
                let changes = open(data, name: name, device: device, sequence: sequence, snapshot: isSnapshot)
            else {
                if passOver(sequence, snapshot: isSnapshot) { continue }
                findings.blocked(device, at: name, sequence: sequence, newest: newest)
                break
            }
            if !isSnapshot, changes.previous != peer.chainHash {
                findings.issue(
                    .replayed, name, "does not follow batch \(sequence - 1) of its device (replayed or forked)")
                findings.blocked(device, at: name, sequence: sequence, newest: newest)
                break
            }
            var advanced = peer
            advanced.sequence = sequence
            advanced.chainHash = isSnapshot ? changes.previous : ObjectHash.of(data)
            if let cut, !cut.accepts(device: device, sequence: sequence, chainHash: advanced.chainHash) {
                // Written under a key this device is leaving, past what the rotation counted.
                break
            }
            // Another device's name is shown and typed here: nothing a terminal would obey, within the bound.
            advanced.name = DeviceName.sanitized(changes.deviceName)
            advanced.vaultDeviceID = changes.vaultDevice
            advanced.joinedAt = changes.joinedAt ?? peer.joinedAt
            advanced.lastSeen = clock.now().unixMilliseconds
            advanced.firstSeen = peer.firstSeen ?? advanced.lastSeen
            advanced.seenSequence = max(peer.seenSequence, sequence)
            if let deliver {
                deliver(changes, name)
                peer = advanced
                continue
            }
            guard try apply(changes, name: name, persist: { db in try persist(db, advanced) }) else {
                findings.blocked(device, at: name, sequence: sequence, newest: newest)
                break
            }
            peer = advanced
        }
        return peer
    }

    /// What reading an object gave.
    enum Fetched {
        case bytes(Data)
        /// Listed, but gone since.
        case gone
        /// Not read, and reported as rejected.
        case refused
    }

    /// The bytes of another device's object, if it is there and not refused.
    ///
    /// An object the remote refuses to read (larger than
    /// `RemoteObject.maximumSize`, as listed or as sent, or not a plain file)
    /// is reported as rejected, like one that does not open, and the sync
    /// goes on with the other devices.
    private mutating func fetch(_ name: String) async throws -> Fetched {
        let refusal: String
        if let listed = scope.listing.sizes[name], listed > RemoteObject.maximumSize {
            refusal = "it is listed with \(listed) bytes, more than the \(RemoteObject.maximumSize) bytes allowed"
        } else {
            do {
                return try await resources.remote.get(name).map(Fetched.bytes) ?? .gone
            } catch let RemoteError.objectRefused(_, reason) {
                refusal = reason
            }
        }
        findings.refused(name, reason: refusal)
        return .refused
    }

    /// The next object to read: the next batch, or the newest snapshot (but
    /// those `passingOver`) when the batch is gone (compacted) or when the
    /// snapshot saves many reads.
    private func nextObject(
        after sequence: Int64, of device: String, _ objects: RemoteListing.DeviceObjects,
        passingOver passedOver: Set<Int64>
    ) -> (String, Int64, Bool)? {
        let next = sequence + 1
        if let snapshot = objects.snapshots.filter({ $0 > sequence && !passedOver.contains($0) }).max(),
            !objects.batches.contains(next) || snapshot - sequence >= 16
        {
            return (scope.name(.snapshot(vault: scope.vaultID, device: device, sequence: snapshot)), snapshot, true)
        }
        guard objects.batches.contains(next) else { return nil }
        return (scope.name(.batch(vault: scope.vaultID, device: device, sequence: next)), next, false)
    }

    /// The object's change set, or nil (reported) if it fails any check.
    private mutating func open(
        _ data: Data, name: String, device: String, sequence: Int64, snapshot: Bool
    ) -> ChangeSet? {
        do {
            let payload = try SealedObject.open(
                data, key: scope.keys.objectKey, vault: scope.vaultID, device: device, name: name)
            let changes = try ChangeSet.decode(
                payload, snapshot: snapshot, vault: scope.vaultID, device: device, sequence: sequence)
            try changes.checkClocks(physicalNow: clock.now().unixMilliseconds)
            return changes
        } catch {
            if case SyncObjectError.clockAhead = error { findings.rereadEachSync(name) }
            findings.issue(.rejected, name, (error as? UserFacingError)?.description ?? "unreadable")
            return nil
        }
    }
}
