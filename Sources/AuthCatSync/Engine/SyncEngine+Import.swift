import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncEngine {
    /// Imports every other device's new objects, device by device, in order.
    ///
    /// Until this device has imported anything (it just joined), it reads the
    /// whole remote first and merges it as one: label clashes are then
    /// settled on the final records only, never on a state in between that
    /// no other device ever had, so a joiner converges with the others in
    /// one round.
    func importChanges(_ run: SyncEngine.Run) async throws {
        if run.isFirstImport, try await importWhole(run) { return }
        let devices = try devicesToRead(run)
        for (index, (device, objects)) in devices.enumerated() {
            run.progress?(SyncProgress(step: .importing, completed: index, total: devices.count))
            try await importDevice(device, objects: objects, run)
        }
    }

    private func importDevice(
        _ device: String, objects: RemoteListing.DeviceObjects, _ run: SyncEngine.Run
    ) async throws {
        let start = try startOfChain(device)
        guard !isRolledBack(device, objects, from: start, run) else { return }
        let peer = try await readChain(device, objects, from: start, run) { db, peer in try db.save(peer) }
        // A sync with nothing new writes nothing, here as on the remote; nor does one that opened nothing
        // (a device folder planted with bytes that do not open is no device: it leaves no row).
        guard peer != start else { return }
        try store.transaction { try $0.save(peer) }
    }

    /// Where this device stands in `device`'s chain: its stored row, or the
    /// start of a chain never read.
    private func startOfChain(_ device: String) throws -> SyncStore.PeerRecord {
        try store.reading { try $0.peer(device) }
            ?? SyncStore.PeerRecord(
                deviceID: device, vaultDeviceID: device, name: device, sequence: 0, chainHash: "",
                seenSequence: 0, lastSeen: nil)
    }

    /// Whether `device`'s newest listed object is older than the newest one
    /// this device opened of it (reported as a rollback). Only an object
    /// that opened counts as seen (`seenSequence`, DESIGN.md principle 9): a
    /// name listed, or bytes that did not open, move nothing, so that no one
    /// can keep a device in `error` by planting an object and removing it.
    private func isRolledBack(
        _ device: String, _ objects: RemoteListing.DeviceObjects, from start: SyncStore.PeerRecord,
        _ run: SyncEngine.Run
    ) -> Bool {
        // The epoch being left is removed from the remote once its rotation is complete: no rollback there.
        guard objects.newest < start.seenSequence, run.cut == nil else { return false }
        run.issue(
            .rollback, device,
            "its newest object is number \(objects.newest), but number \(start.seenSequence) was read before")
        return true
    }

    /// The other devices with objects on the remote, and those seen before
    /// whose objects are all gone now (a rollback to before their first).
    private func devicesToRead(_ run: SyncEngine.Run) throws -> [(String, RemoteListing.DeviceObjects)] {
        let listed = run.otherDevices
        guard run.cut == nil else { return listed }
        let seen = try store.reading { try $0.peersSeen() }
        let vanished = seen.map(\.deviceID).filter { id in id != run.deviceID && !listed.contains { $0.0 == id } }
        return (listed + vanished.map { ($0, RemoteListing.DeviceObjects()) }).sorted { $0.0 < $1.0 }
    }

    /// Reads every other device's new objects, then applies them merged, in
    /// one vault transaction with every device's new position. Returns false,
    /// having changed nothing and reported nothing, when the vault refused the
    /// merged records: the object-by-object import then finds which object.
    private func importWhole(_ run: SyncEngine.Run) async throws -> Bool {
        let issuesBefore = run.report.issues.count
        var peers: [(start: SyncStore.PeerRecord, read: SyncStore.PeerRecord)] = []
        let collected = SyncEngine.CollectedChanges()
        for (device, objects) in try devicesToRead(run) {
            let start = try startOfChain(device)
            guard !isRolledBack(device, objects, from: start, run) else { continue }
            peers.append((start, try await readChain(device, objects, from: start, run, deliver: collected.add)))
        }
        let changed = peers.filter { $0.start != $0.read }.map(\.read)
        guard let first = collected.sets.first else {
            if !changed.isEmpty { try store.transaction { db in for peer in changed { try db.save(peer) } } }
            return true
        }
        var template = first
        let writers = Set(collected.sets.map { DeviceReference(id: $0.vaultDevice, name: $0.deviceName) })
        if writers.count > 1 {
            // One transaction holds several devices' records: history names them all, under the remote vault's id.
            template.vaultDevice = run.vaultID
            template.deviceName = writers.map(\.name).sorted().joined(separator: ", ")
        }
        let combined = ChangeSet.combining(collected.sets, as: template)
        guard
            try apply(
                combined, name: collected.names[0], run, persist: { db in for peer in changed { try db.save(peer) } })
        else {
            run.report.issues.removeSubrange(issuesBefore...)
            return false
        }
        return true
    }

    /// Imports this device's own objects numbered past what its state says it
    /// wrote: its state is older than the remote (restored from a backup, or a
    /// sync cut off after the write). Their changes come back into the vault,
    /// and new batches continue the chain after them.
    func catchUpOwnChain(_ state: SyncStore.StateRecord, _ run: SyncEngine.Run) async throws {
        let objects = run.ownObjects
        guard objects.newest >= state.nextSequence else { return }
        let start = SyncStore.PeerRecord(
            deviceID: run.deviceID, vaultDeviceID: vault.identity.deviceID, name: vault.identity.deviceName,
            sequence: state.nextSequence - 1, chainHash: state.chainHead, seenSequence: 0, lastSeen: nil)
        let reached = try await readChain(run.deviceID, objects, from: start, run) { db, peer in
            var state = try db.requiredState()
            state.nextSequence = peer.sequence + 1
            state.chainHead = peer.chainHash
            try db.update(state)
        }
        if reached.sequence < objects.newest {
            throw SyncError(
                .integrity,
                "this device's own batches on the remote after number \(reached.sequence) cannot be read; "
                    + "sync stopped so that nothing is overwritten")
        }
    }

    /// Reads a device's objects after `peer`'s position, in order, applying
    /// each; stops (reporting why) at the first gap, rejected or unchained object.
    ///
    /// With `deliver`, each object's changes are handed to it instead of
    /// being applied (`persist` is then not used).
    private func readChain(
        _ device: String, _ objects: RemoteListing.DeviceObjects, from start: SyncStore.PeerRecord,
        _ run: SyncEngine.Run,
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
                    after: peer.sequence, of: device, objects, passingOver: passedOver, run)
            else {
                run.issue(
                    .gap, device, "batch \(peer.sequence + 1) is missing (newest is \(newest)); its later changes wait")
                break
            }
            // Rejected before and unchanged: not read or reported again, but its device's later changes wait.
            guard !run.isKnownRejected(name) else {
                if passOver(sequence, snapshot: isSnapshot) { continue }
                run.blocked(device, at: name, sequence: sequence, newest: newest)
                break
            }
            // An object listed but gone was removed by its device's compaction: its snapshot comes next time.
            let data: Data
            switch try await fetch(name, run) {
            case .gone: break reading
            case .refused:
                if passOver(sequence, snapshot: isSnapshot) { continue }
                run.blocked(device, at: name, sequence: sequence, newest: newest)
                break reading
            case .bytes(let bytes): data = bytes
            }
            run.readVersions[name] = run.version(of: name, data: data)
            guard !run.isKnownRejected(name, data: data),
                let changes = open(data, name: name, device: device, sequence: sequence, snapshot: isSnapshot, run)
            else {
                if passOver(sequence, snapshot: isSnapshot) { continue }
                run.blocked(device, at: name, sequence: sequence, newest: newest)
                break
            }
            if !isSnapshot, changes.previous != peer.chainHash {
                run.issue(.replayed, name, "does not follow batch \(sequence - 1) of its device (replayed or forked)")
                run.blocked(device, at: name, sequence: sequence, newest: newest)
                break
            }
            var advanced = peer
            advanced.sequence = sequence
            advanced.chainHash = isSnapshot ? changes.previous : ObjectHash.of(data)
            if let cut = run.cut, !cut.accepts(device: device, sequence: sequence, chainHash: advanced.chainHash) {
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
            guard try apply(changes, name: name, run, persist: { db in try persist(db, advanced) }) else {
                run.blocked(device, at: name, sequence: sequence, newest: newest)
                break
            }
            peer = advanced
        }
        return peer
    }

    /// What reading an object gave.
    private enum Fetched {
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
    private func fetch(_ name: String, _ run: SyncEngine.Run) async throws -> Fetched {
        let refusal: String
        if let listed = run.listing.sizes[name], listed > RemoteObject.maximumSize {
            refusal = "it is listed with \(listed) bytes, more than the \(RemoteObject.maximumSize) bytes allowed"
        } else {
            do {
                return try await remote.get(name).map(Fetched.bytes) ?? .gone
            } catch let RemoteError.objectRefused(_, reason) {
                refusal = reason
            }
        }
        run.refused(name, reason: refusal)
        return .refused
    }

    /// The next object to read: the next batch, or the newest snapshot (but
    /// those `passingOver`) when the batch is gone (compacted) or when the
    /// snapshot saves many reads.
    private func nextObject(
        after sequence: Int64, of device: String, _ objects: RemoteListing.DeviceObjects,
        passingOver passedOver: Set<Int64>, _ run: SyncEngine.Run
    ) -> (String, Int64, Bool)? {
        let next = sequence + 1
        if let snapshot = objects.snapshots.filter({ $0 > sequence && !passedOver.contains($0) }).max(),
            !objects.batches.contains(next) || snapshot - sequence >= 16
        {
            return (run.name(.snapshot(vault: run.vaultID, device: device, sequence: snapshot)), snapshot, true)
        }
        guard objects.batches.contains(next) else { return nil }
        return (run.name(.batch(vault: run.vaultID, device: device, sequence: next)), next, false)
    }

    /// The object's change set, or nil (reported) if it fails any check.
    private func open(
        _ data: Data, name: String, device: String, sequence: Int64, snapshot: Bool, _ run: SyncEngine.Run
    ) -> ChangeSet? {
        do {
            let payload = try SealedObject.open(
                data, key: run.keys.objectKey, vault: run.vaultID, device: device, name: name)
            let changes = try ChangeSet.decode(
                payload, snapshot: snapshot, vault: run.vaultID, device: device, sequence: sequence)
            try changes.checkClocks(physicalNow: clock.now().unixMilliseconds)
            return changes
        } catch {
            if case SyncObjectError.clockAhead = error { run.rereadEachSync.insert(name) }
            run.issue(.rejected, name, (error as? UserFacingError)?.description ?? "unreadable")
            return nil
        }
    }

    /// Merges a change set into the vault, then saves clocks and the peer's
    /// position. Returns false (reported) if the vault refused the records.
    ///
    /// One write transaction of the sync store holds the whole step: the
    /// stamp of local changes, the clocks read, the vault's own write
    /// transaction (the merge) and the clocks, state and `persist` saved
    /// after it. The sync store commits after the vault, as two separate
    /// files must: a kill in between leaves the vault merged and the position
    /// where it was, so the next sync reads the object again and merges it
    /// to the same values. Only syncs write the sync store, and they take
    /// turns under the run lock, so holding it never makes another process wait.
    ///
    /// A local change committed between the stamp and the merge's vault
    /// transaction (another process may write the vault at any time) must
    /// not be overwritten unseen: the merge finds it there
    /// (`SyncEngine.LocalChangesArrived`), and the step is tried again from a new stamp.
    /// That is the only retry, and it needs that race each time.
    private func apply(
        _ changes: ChangeSet, name: String, _ run: SyncEngine.Run, persist: (SyncStore.Transaction) throws -> Void
    ) throws -> Bool {
        for _ in 0..<5 {
            do {
                let session = try store.transaction { db in
                    guard let state = try stamp(db), let cursor = state.stampCursor else {
                        throw SyncStoreError.malformed("no state row")
                    }
                    let session = try merge(changes, db: db, state: state, cursor: cursor, run)
                    for key in session.touched { if let record = session.clocks[key] { try db.save(record) } }
                    var merged = state
                    merged.clock = session.hlc
                    merged.importedOnce = true
                    try db.update(merged)
                    try persist(db)
                    return session
                }
                run.report.importedChanges += session.changedRecords
                run.report.preferenceChanges += session.preferenceChanges
                run.report.replacedEdits += try namingDevices(session.replacedEdits)
                return true
            } catch is SyncEngine.LocalChangesArrived {
                continue
            } catch let error as SyncObjectError {
                run.issue(.rejected, name, error.description)
                return false
            } catch let error as UserFacingError
                where error is VaultError || error as? VaultStoreError ?? .busy != .busy
            {
                // Refused records (any vault error but `busy`, another process's lock, which is retried).
                run.issue(.rejected, name, "the vault refused its records: \(error.description)")
                return false
            } catch let error as OTPParameterError {
                run.issue(.rejected, name, error.description)
                return false
            }
        }
        throw SyncError.busy()
    }

    /// The replaced edits with the name each winning device gave in its newest batch read.
    private func namingDevices(_ edits: [SyncReport.ReplacedEdit]) throws -> [SyncReport.ReplacedEdit] {
        guard !edits.isEmpty else { return edits }
        return try store.reading { db in
            try edits.map { edit in
                var named = edit
                named.deviceName = try db.peer(edit.deviceID)?.name
                return named
            }
        }
    }

    private func merge(
        _ changes: ChangeSet, db: SyncStore.Transaction, state: SyncStore.StateRecord, cursor: Int64,
        _ run: SyncEngine.Run
    ) throws -> ImportSession {
        let keys =
            changes.accounts.map { SyncStore.ClockRecord.Key(entity: .account, recordID: $0.id) }
            + changes.preferences.map { SyncStore.ClockRecord.Key(entity: .preference, recordID: $0.key) }
        let clocks = try db.clocks(keys)
        // The writer's own word, shown by `history`: what would not show is written out (`<U+3164>`).
        let author = HistoryAuthor.sync(
            from: DeviceReference(id: changes.vaultDevice, name: DeviceName.escaped(changes.deviceName)))
        return try vault.write(author: author) { writer in
            guard try writer.latestHistoryNumber(excluding: .sync) <= cursor else {
                throw SyncEngine.LocalChangesArrived()
            }
            let session = try ImportSession(
                writer: writer, deviceID: state.deviceID, physicalNow: clock.now().unixMilliseconds,
                hlc: state.clock, clocks: clocks, preferenceReason: run.preferenceReason
            ) { key in
                try db.clock(key)
            }
            try session.apply(changes)
            return session
        }
    }
}

extension SyncEngine {
    /// The change sets `importWhole` reads before merging them, with their object names.
    private final class CollectedChanges {
        var sets: [ChangeSet] = []
        var names: [String] = []

        func add(_ changes: ChangeSet, _ name: String) {
            sets.append(changes)
            names.append(name)
        }
    }
}

extension SyncEngine {
    /// Thrown inside an import transaction when the vault got local changes after
    /// they were last stamped: the import is rolled back, they are stamped, and
    /// the import is tried again, so an incoming value never silently overwrites
    /// a local change it has not been compared with.
    struct LocalChangesArrived: Error {}
}
