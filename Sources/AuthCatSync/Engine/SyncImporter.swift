import AuthCatCore
import AuthCatEssentials
import Foundation

/// The import stage: reads every other device's new objects on the remote,
/// in order along each device's chain, and merges them into the vault
/// through the vault store (author `sync`, so they show in history with the
/// device they came from). It owns what it finds wrong with single objects
/// (`findings`) and what it brought in (`imported`).
struct SyncImporter {
    let resources: SyncResources
    let scope: SyncScope
    let progress: ((SyncProgress) -> Void)?
    /// Set while reading an epoch this device is leaving: only what the
    /// rotation's cut points allow is accepted (`EpochCut`).
    let cut: EpochCut?
    /// Why preferences arriving in this sync changed, decided once at its start.
    let preferenceReason: SyncReport.PreferenceChange.Reason
    /// Whether nothing was imported from this remote vault yet (a device that just joined).
    let isFirstImport: Bool
    /// What this import found wrong, starting from what the caller found before it.
    var findings: ObjectFindings
    /// What this import brought in so far.
    var imported = Imported()

    /// What the import brought into the vault, for the report.
    struct Imported {
        var importedChanges = 0
        var preferenceChanges: [SyncReport.PreferenceChange] = []
        var replacedEdits: [SyncReport.ReplacedEdit] = []

        /// These and `more`, in that order.
        func adding(_ more: Imported) -> Imported {
            Imported(
                importedChanges: importedChanges + more.importedChanges,
                preferenceChanges: preferenceChanges + more.preferenceChanges,
                replacedEdits: replacedEdits + more.replacedEdits)
        }
    }

    init(
        resources: SyncResources, scope: SyncScope, state: SyncStore.StateRecord, findings: ObjectFindings,
        progress: ((SyncProgress) -> Void)?, cut: EpochCut? = nil
    ) {
        self.resources = resources
        self.scope = scope
        self.progress = progress
        self.cut = cut
        self.findings = findings
        isFirstImport = !state.importedOnce
        if state.importedOnce {
            preferenceReason = .serverChange
        } else {
            preferenceReason = state.previousRemoteVaultID == nil ? .initialSync : .accountChange
        }
    }

    // Shorthands for the extensions' sake.
    var store: SyncStore { resources.store }
    var vault: Vault { resources.vault }
    var clock: Clock { resources.clock }

    /// Imports every other device's new objects, device by device, in order.
    ///
    /// Until this device has imported anything (it just joined), it reads the
    /// whole remote first and merges it as one: label clashes are then
    /// settled on the final records only, never on a state in between that
    /// no other device ever had, so a joiner converges with the others in
    /// one round.
    mutating func importChanges() async throws {
        if isFirstImport, try await importWhole() { return }
        let devices = try devicesToRead()
        for (index, (device, objects)) in devices.enumerated() {
            progress?(SyncProgress(step: .importing, completed: index, total: devices.count))
            try await importDevice(device, objects: objects)
        }
    }

    private mutating func importDevice(
        _ device: String, objects: RemoteListing.DeviceObjects
    ) async throws {
        let start = try startOfChain(device)
        guard !isRolledBack(device, objects, from: start) else { return }
        let peer = try await readChain(device, objects, from: start) { db, peer in try db.save(peer) }
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
    private mutating func isRolledBack(
        _ device: String, _ objects: RemoteListing.DeviceObjects, from start: SyncStore.PeerRecord
    ) -> Bool {
        // The epoch being left is removed from the remote once its rotation is complete: no rollback there.
        guard objects.newest < start.seenSequence, cut == nil else { return false }
        findings.issue(
            .rollback, device,
            "its newest object is number \(objects.newest), but number \(start.seenSequence) was read before")
        return true
    }

    /// The other devices with objects on the remote, and those seen before
    /// whose objects are all gone now (a rollback to before their first).
    private func devicesToRead() throws -> [(String, RemoteListing.DeviceObjects)] {
        let listed = scope.otherDevices
        guard cut == nil else { return listed }
        let seen = try store.reading { try $0.peersSeen() }
        let vanished = seen.map(\.deviceID).filter { id in id != scope.deviceID && !listed.contains { $0.0 == id } }
        return (listed + vanished.map { ($0, RemoteListing.DeviceObjects()) }).sorted { $0.0 < $1.0 }
    }

    /// Reads every other device's new objects, then applies them merged, in
    /// one vault transaction with every device's new position. Returns false,
    /// having changed nothing and reported nothing, when the vault refused the
    /// merged records: the object-by-object import then finds which object.
    private mutating func importWhole() async throws -> Bool {
        let issuesBefore = findings.issues.count
        var peers: [(start: SyncStore.PeerRecord, read: SyncStore.PeerRecord)] = []
        let collected = SyncImporter.CollectedChanges()
        for (device, objects) in try devicesToRead() {
            let start = try startOfChain(device)
            guard !isRolledBack(device, objects, from: start) else { continue }
            peers.append((start, try await readChain(device, objects, from: start, deliver: collected.add)))
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
            template.vaultDevice = scope.vaultID
            template.deviceName = writers.map(\.name).sorted().joined(separator: ", ")
        }
        let combined = ChangeSet.combining(collected.sets, as: template)
        guard
            try apply(
                combined, name: collected.names[0], persist: { db in for peer in changed { try db.save(peer) } })
        else {
            findings.withdrawIssues(after: issuesBefore)
            return false
        }
        return true
    }

    /// Imports this device's own objects numbered past what its state says it
    /// wrote: its state is older than the remote (restored from a backup, or a
    /// sync cut off after the write). Their changes come back into the vault,
    /// and new batches continue the chain after them.
    mutating func catchUpOwnChain(_ state: SyncStore.StateRecord) async throws {
        let objects = scope.ownObjects
        guard objects.newest >= state.nextSequence else { return }
        let start = SyncStore.PeerRecord(
            deviceID: scope.deviceID, vaultDeviceID: vault.identity.deviceID, name: vault.identity.deviceName,
            sequence: state.nextSequence - 1, chainHash: state.chainHead, seenSequence: 0, lastSeen: nil)
        let reached = try await readChain(scope.deviceID, objects, from: start) { db, peer in
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
}
