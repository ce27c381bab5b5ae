import AuthCatCore
import AuthCatEssentials
import Foundation

/// Follows the rotation records on a remote from the epoch a device holds to
/// the newest one it can prove (docs/FORMAT.md §5.9, SECURITY.md "Lost devices").
///
/// A record counts only when it names the record the device adopted before
/// (`previous`) and was signed by the authority that record named (for epoch 1,
/// the one pinned at join). Records at or below the device's epoch are never
/// read (replays). Two valid records at one epoch, which create-only writes
/// prevent on honest storage, are resolved the same way on every device: the
/// smaller digest wins, and the other is reported.
struct RotationChain {
    /// Where a device stands: its epoch, the hash of the record that made it
    /// ("" for epoch 0), and the authority that must sign the next record.
    struct Position: Equatable, Sendable {
        var epoch: Int64
        var recordHash: String
        var authority: Data
    }

    enum Outcome {
        /// No newer epoch is listed.
        case current
        /// A newer epoch was proved and its key opened with this device's key pair.
        case adopted(position: Position, keys: SyncKeys, record: RotationRecord)
        /// A proved rotation revoked this device: it stops syncing for good.
        /// `recordHash` is the SHA-256 (hex) of that record's stored bytes.
        case revoked(epoch: Int64, record: RotationRecord, recordHash: String)
        /// A proved rotation holds no key for this device without revoking it
        /// (its key was not certified): it must join again with the passphrase.
        case leftOut(epoch: Int64)
        /// A newer epoch is listed but no record proves it from here: the remote
        /// withholds or forged it. The device stops writing until it is proved.
        case withheld(listed: Int64, proved: Int64)
    }

    struct Result {
        var outcome: Outcome
        /// Epochs at which two valid records were found (the smaller digest was taken).
        var conflicts: [Int64] = []
        /// Records that failed a check, by name, with the reason; never believed.
        var rejected: [(name: String, reason: String)] = []
    }

    let remote: any Remote
    let vault: String

    /// Follows the chain from `position` for `device`, whose key pair opens
    /// the newest key, using one listing of the vault's folder.
    func follow(
        from position: Position, listing: [RemoteObject], device: String, deviceKeys: DeviceKeys
    ) async throws -> Result {
        let newestListed = EpochLayout.newestListedEpoch(listing.map(\.name), vault: vault)
        let candidates = recordNames(after: position.epoch, in: listing)
        var result = Result(outcome: .current)
        var current = position
        var newest: RotationRecord?
        while current.epoch < newestListed {
            let epoch = current.epoch + 1
            let valid = try await validRecords(at: epoch, names: candidates[epoch] ?? [], after: current, into: &result)
            guard let winner = valid.first else {
                result.outcome = .withheld(listed: newestListed, proved: current.epoch)
                return result
            }
            if valid.count > 1 { result.conflicts.append(epoch) }
            if winner.record.revoked.contains(device) {
                result.outcome = .revoked(epoch: epoch, record: winner.record, recordHash: winner.hash)
                return result
            }
            current = Position(epoch: epoch, recordHash: winner.hash, authority: winner.record.authorityPublicKey)
            newest = winner.record
        }
        guard let newest else { return result }
        guard let masterKey = try newest.masterKey(for: device, keys: deviceKeys) else {
            result.outcome = .leftOut(epoch: newest.epoch)
            return result
        }
        result.outcome = .adopted(position: current, keys: try SyncKeys(masterKey: masterKey), record: newest)
        return result
    }

    /// Whether the records listed lead from `anchor` to exactly `target`, each
    /// taken as `follow` takes it (the smallest digest where two count): what
    /// a recovery key opened from a sealed box must see before it believes the
    /// manifest it opened, since anyone can seal to its public half.
    ///
    /// An anchor made with a new recovery key names the authority of the
    /// epoch its rotation moves to, before that record exists (`recordHash`
    /// ""): the chain then starts at whichever listed record of that epoch names
    /// that authority, since only the holder of its secret half, wrapped under
    /// the new manifest key, can sign anything that follows it.
    func proves(_ target: Position, from anchor: Position, listing: [RemoteObject]) async throws -> Bool {
        guard anchor.epoch <= target.epoch else { return false }
        let candidates = recordNames(after: anchor.epoch - 1, in: listing)
        guard anchor.epoch > 0, anchor.recordHash.isEmpty else {
            return try await proves(target, from: anchor, candidates: candidates)
        }
        for name in candidates[anchor.epoch] ?? [] {
            guard let data = try await remote.get(name),
                let record = try? RotationRecord.decode(data, name: name, vault: vault),
                PublicKeyCrypto.constantTimeEqual(record.authorityPublicKey, anchor.authority)
            else { continue }
            var start = anchor
            start.recordHash = ObjectHash.of(data)
            if try await proves(target, from: start, candidates: candidates) { return true }
        }
        return false
    }

    private func proves(_ target: Position, from anchor: Position, candidates: [Int64: [String]]) async throws -> Bool {
        var current = anchor
        var ignored = Result(outcome: .current)
        while current.epoch < target.epoch {
            let epoch = current.epoch + 1
            let valid = try await validRecords(
                at: epoch, names: candidates[epoch] ?? [], after: current, into: &ignored)
            guard let winner = valid.first else { return false }
            current = Position(epoch: epoch, recordHash: winner.hash, authority: winner.record.authorityPublicKey)
        }
        return current == target
    }

    /// The names of the records listed for epochs after `epoch`, by epoch.
    private func recordNames(after epoch: Int64, in listing: [RemoteObject]) -> [Int64: [String]] {
        var candidates: [Int64: [String]] = [:]
        for object in listing {
            if case .rotation(let v, let recordEpoch, _) = EpochLayout.parse(object.name), v == vault,
                recordEpoch > epoch
            {
                candidates[recordEpoch, default: []].append(object.name)
            }
        }
        return candidates
    }

    /// The records at `epoch` that chain to `current` and that its authority
    /// signed, smallest digest first.
    private func validRecords(
        at epoch: Int64, names: [String], after current: Position, into result: inout Result
    ) async throws -> [(record: RotationRecord, hash: String)] {
        var valid: [(record: RotationRecord, hash: String, name: String)] = []
        for name in names {
            guard let data = try await remote.get(name) else { continue }
            do {
                let record = try RotationRecord.decode(data, name: name, vault: vault)
                guard record.previous == current.recordHash else {
                    throw SyncObjectError.wrongObject(
                        "rotation record that does not follow the epoch this device holds")
                }
                guard try record.isSigned(by: current.authority) else { throw SyncObjectError.notAuthentic }
                valid.append((record, ObjectHash.of(data), name))
            } catch {
                result.rejected.append((name, "\(error)"))
            }
        }
        return valid.sorted { $0.name < $1.name }.map { ($0.record, $0.hash) }
    }
}

/// What a device accepts under the old key once a rotation is adopted: each
/// device's objects up to its cut point, nothing from a device the rotation
/// does not name, and no marker of the old epoch (SECURITY.md "Lost devices").
struct EpochCut {
    let record: RotationRecord

    /// Whether the old-epoch object of `device` numbered `sequence` still
    /// counts. `chainHash` is the SHA-256 of a batch's stored bytes, or a
    /// snapshot's `previous`: at the cut itself it must be the object the
    /// rotation saw, so a thief cannot replace the last batch either.
    func accepts(device: String, sequence: Int64, chainHash: String) -> Bool {
        guard let cut = record.cut(for: device), sequence <= cut.sequence else { return false }
        return sequence < cut.sequence || chainHash == cut.chainHash
    }

    /// Markers of an old epoch are never obeyed: the thief could seal them.
    func acceptsMarker() -> Bool { false }
}
