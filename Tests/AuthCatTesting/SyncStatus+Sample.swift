import AuthCatSync
import Foundation

extension SyncStatus {
    /// A status with something in every part: an S3 remote that cannot be
    /// reached, a failed import, a rejected object and two devices, all at
    /// `time` or seconds after. For the tests of its text and JSON forms.
    public static func sampleNoNetwork(at time: Date) -> SyncStatus {
        let failure = SyncFailure(category: .unreachable, message: "cannot reach s3://bucket")
        let local = SyncLocalState(
            isEnabled: true, remoteLocation: "s3://bucket/vault", pendingLocalChanges: 2, batchesSinceSnapshot: 3,
            rejectedObjects: [
                SyncLocalState.RejectedObject(
                    name: "authcat-v/d/b-0000000002", kind: .rejected, detail: "authentication failed",
                    firstSeen: time)
            ],
            devicesSeen: [
                SyncLocalState.DeviceSeen(id: "d1", name: "laptop", isThisDevice: true),
                SyncLocalState.DeviceSeen(id: "d2", name: "desktop", lastSeen: time),
            ])
        return SyncStatus(
            summary: .noNetwork, message: failure.message,
            setup: SyncStatus.PhaseState(state: .succeeded, started: time, ended: time + 1),
            import: SyncStatus.PhaseState(state: .failed, started: time + 2, ended: time + 3, failure: failure),
            local: local, lastSuccessfulSync: time, probe: .failed(failure))
    }
}
