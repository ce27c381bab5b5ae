import Foundation

/// A live check that the remote answers, accepts the credentials and still
/// holds this device's vault: one cheap list request (two or three when the
/// vault's manifest is gone), with a deadline.
public enum SyncProbe {
    /// Lists the remote; never takes much longer than `timeout`.
    ///
    /// With `vaultID`, a remote that no longer holds that vault fails the
    /// check: `remoteDeleted` when a deletion marker is there (not opened:
    /// only a sync, which has the key, believes it and turns sync off), else
    /// `containerMissing` (emptied, or the wrong folder mounted). A vault whose
    /// manifest alone is missing still answers; the sync reports that.
    ///
    /// A remote that has not answered in time counts as unreachable. The
    /// request is cancelled then, but not waited for: a hung mount or socket
    /// must not hang `authcat sync status`.
    public static func check(_ remote: any Remote, vaultID: String? = nil, timeout: Duration = .seconds(5)) async -> SyncProbeResult {
        await withCheckedContinuation { continuation in
            let first = FirstResult(continuation)
            let request = Task {
                first.offer(await listOnce(remote, vaultID: vaultID))
            }
            Task {
                try? await Task.sleep(for: timeout)
                request.cancel()
                first.offer(.failed(SyncFailure(
                    category: .unreachable,
                    message: "\(remote.displayLocation) did not answer within \(timeout.components.seconds) seconds")))
            }
        }
    }

    private static func listOnce(_ remote: any Remote, vaultID: String?) async -> SyncProbeResult {
        do {
            guard let vaultID else {
                // A prefix no object has: the answer is tiny.
                _ = try await remote.list(prefix: "manifest")
                return .reachable
            }
            let manifest = RemoteLayout.manifest(vaultID)
            if try await remote.list(prefix: manifest).contains(where: { $0.name == manifest }) { return .reachable }
            let marker = RemoteLayout.deletedMarker(vaultID)
            if try await remote.list(prefix: marker).contains(where: { $0.name == marker }) {
                return .failed(SyncFailure(category: .remoteDeleted, message: "the remote holds a deletion marker for this vault: "
                    + "another device deleted the remote data; local data is kept", nextStep: .confirmRemoteDeletion))
            }
            if !(try await remote.list(prefix: RemoteLayout.folder(vaultID) + "/")).isEmpty { return .reachable }
            return .failed(SyncError.noVaultOnRemote(remote.displayLocation).failure)
        } catch {
            return .failed(SyncError.wrapping(error).failure)
        }
    }
}

/// The outcome of a live check that the remote answers and accepts the credentials.
public enum SyncProbeResult: Equatable, Sendable {
    case reachable
    case failed(SyncFailure)
}
