import AuthCatCore
import AuthCatEssentials
import Foundation
import Synchronization

/// A live check that the remote answers, accepts the credentials and still
/// holds this device's vault: one cheap list request (two or three when the
/// vault's manifest is gone), with a deadline.
public enum SyncProbe {
    /// Lists the remote; never takes much longer than `timeout`.
    ///
    /// With `vaultID`, a remote that no longer holds that vault fails the
    /// check: `remoteDeleted` when a deletion marker is there and opens with
    /// the key this device keeps in `vault`'s sync state, `integrity` when it
    /// does not open (planted or damaged: it is ignored), an unconfirmed
    /// marker when there is no key to open it with (no `vault`, or its key
    /// needs a passphrase that `vault` was not given: pass one that never
    /// prompts, since the check has a deadline); else
    /// `containerMissing` (emptied, or the wrong folder mounted). A vault whose
    /// manifest alone is missing still answers; the sync reports that.
    ///
    /// A remote that has not answered in time counts as unreachable. The
    /// request is cancelled then, but not waited for: a hung mount or socket
    /// must not hang `authcat sync status`. The time is counted from the
    /// request: a program the remote runs on this machine (rclone) started
    /// when the remote was made, so that a slow start on a busy machine is
    /// not taken for a remote that does not answer.
    public static func check(
        _ remote: any Remote, vaultID: String? = nil, keysFrom vault: Vault? = nil,
        timeout: Duration = .seconds(5)
    ) async -> SyncProbeResult {
        let answer = await first(
            { await listOnce(remote, vaultID: vaultID, vault: vault) }, orAfter: timeout,
            "\(remote.displayLocation) did not answer")
        return answer ?? .reachable
    }

    /// What `body` returns, or, if it has not returned within `limit`, an
    /// unreachable remote (`what` happened "within N seconds"); `body` is
    /// cancelled then, not waited for. Whichever comes first ends the other.
    private static func first(
        _ body: @escaping @Sendable () async -> SyncProbeResult?, orAfter limit: Duration, _ what: String
    ) async -> SyncProbeResult? {
        await withCheckedContinuation { continuation in
            let first = FirstResult<SyncProbeResult?>(continuation)
            let work = Task { first.offer(await body()) }
            let timer = Task {
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                work.cancel()
                let message = "\(what) within \(limit.components.seconds) seconds"
                first.offer(.failed(SyncFailure(category: .unreachable, message: message)))
            }
            Task {
                _ = await work.value
                timer.cancel()
            }
        }
    }

    private static func listOnce(_ remote: any Remote, vaultID: String?, vault: Vault?) async -> SyncProbeResult {
        do {
            guard let vaultID else {
                // A prefix no object has: the answer is tiny.
                _ = try await remote.list(prefix: "manifest")
                return .reachable
            }
            let manifest = RemoteLayout.manifest(vaultID)
            if try await remote.list(prefix: manifest).contains(where: { $0.name == manifest }) { return .reachable }
            let marker = RemoteLayout.deletedMarker(vaultID)
            if let listed = try await remote.list(prefix: marker).first(where: { $0.name == marker }) {
                return try await deletionMarker(listed, vaultID: vaultID, remote: remote, vault: vault)
            }
            if !(try await remote.list(prefix: RemoteLayout.folder(vaultID) + "/")).isEmpty { return .reachable }
            return .failed(SyncError.noVaultOnRemote(remote.displayLocation).failure)
        } catch {
            return .failed(SyncError.wrapping(error).failure)
        }
    }
}

extension SyncProbe {
    /// What a deletion marker says once opened with this device's key.
    private static func deletionMarker(
        _ listed: RemoteObject, vaultID: String, remote: any Remote,
        vault: Vault?
    ) async throws -> SyncProbeResult {
        let name = listed.name
        guard let objectKey = objectKey(vaultID: vaultID, vault: vault) else {
            return .failed(
                SyncFailure(
                    category: .other,
                    message: "the remote holds a deletion marker for this vault, which "
                        + "only a sync can check (it opens only with the vault key, which needs the passphrase); local data is kept",
                    nextStep: .confirmRemoteDeletion))
        }
        // A marker a sync rejected before, unchanged since, is not downloaded again.
        let markers = MarkerCheck(
            remote: remote, vaultID: vaultID, objectKey: objectKey,
            isKnownRejected: MarkerCheck.knownRejected(
                knownRejections(vault),
                listed: listed.version.map { [name: $0] } ?? [:]))
        if try await markers.opens(name, .deleted) {
            return .failed(
                SyncFailure(
                    category: .remoteDeleted,
                    message: "the remote holds a deletion marker for this vault: "
                        + "another device deleted the remote data; local data is kept", nextStep: .confirmRemoteDeletion
                ))
        }
        return .failed(
            SyncFailure(
                category: .integrity,
                message: "the remote holds a deletion marker for this vault that does "
                    + "not open with its key (planted or damaged), and the vault's manifest is missing; the marker is ignored",
                nextStep: .repairRemote))
    }

    /// The objects this device's syncs rejected, by name; none when its state cannot be read.
    private static func knownRejections(_ vault: Vault?) -> [String: SyncStore.RejectedRecord] {
        guard let vault, let store = try? SyncStore.openIfPresent(in: vault.location) else { return [:] }
        return (try? SyncStore.RejectedRecord.byName(in: store)) ?? [:]
    }

    /// The object key of the remote vault this device joined, if `vault`'s key can be had.
    private static func objectKey(vaultID: String, vault: Vault?) -> SecretBytes? {
        guard let vault, let state = try? SyncStore.openIfPresent(in: vault.location)?.state(),
            state.remoteVaultID == vaultID
        else { return nil }
        return try? SyncKeys.unsealLocally(
            state.sealedMasterKey, vault: vault, remoteVaultID: vaultID,
            deviceID: state.deviceID
        ).objectKey
    }
}

/// The outcome of a live check that the remote answers and accepts the credentials.
public enum SyncProbeResult: Equatable, Sendable {
    case reachable
    case failed(SyncFailure)
}

/// Resumes a continuation with whichever of several racing results comes first.
final class FirstResult<Value: Sendable>: Sendable {
    /// Nil once a result was handed over.
    private let continuation: Mutex<CheckedContinuation<Value, Never>?>

    init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = Mutex(continuation)
    }

    /// Offers a result; every one after the first is ignored.
    func offer(_ value: Value) {
        let waiting = continuation.withLock { $0.take() }
        waiting?.resume(returning: value)
    }
}
