import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncService {
    /// What `disable` did, or why it could not.
    public enum DisableOutcome: Sendable, Equatable {
        /// Sync was off here and nothing was asked of the remote.
        case alreadyOff
        /// Sync was off because another device deleted the remote data (or the
        /// remote came to hold another vault); that stop is acknowledged now.
        case acknowledgedStop
        /// The lost state was forgotten (set aside under `setAside`, if there was a file).
        case forgotLostState(setAside: String?, remote: String?)
        /// The state was lost, and with it the key to the remote: nothing was changed.
        case lostStateCannotReachRemote
        /// Sync was never set up here, so there is no remote to turn off or delete.
        case neverSetUp
        /// Sync is off here, and on the remote as asked.
        case disabled(remote: String)
    }

    /// The remote part of `disable` failed after sync was turned off here.
    public struct RemoteNotUpdated: Error {
        public let cause: any Error
    }

    /// Turns sync off here (always, first), keeping all local data, and with
    /// `everywhere` or `deleteRemote` on the remote too (`SyncEngine.disable`),
    /// also after sync was turned off here. Without either, it acknowledges a
    /// stop another device caused, or forgets a lost state.
    ///
    /// - Parameters:
    ///   - confirmDeletion: asked, before the run lock, with the remote and
    ///     whether sync is on, before `deleteRemote` deletes anything; it throws to refuse.
    ///   - whenBusy: called once, before waiting, when another sync runs.
    /// - Throws: `RemoteNotUpdated` when sync is off here but the remote part
    ///   failed; `SyncError` when sync could not be turned off.
    public func disable(
        everywhere: Bool, deleteRemote: Bool, confirmDeletion: (_ remote: String, _ syncOn: Bool) throws -> Void,
        whenBusy: () -> Void = {}
    ) async throws -> DisableOutcome {
        let remoteToo = everywhere || deleteRemote
        let standing = look()
        if standing.lost != nil {
            guard !remoteToo else { return .lostStateCannotReachRemote }
            return try await forgetLostState(whenBusy: whenBusy)
        }
        guard standing.isOn || remoteToo else {
            guard standing.record != nil else { return .alreadyOff }
            let acknowledged = try await coordinator.withRunLock(whenBusy: whenBusy) {
                try SyncState.acknowledgeStop(look())
            }
            guard acknowledged else { return .alreadyOff }
            refreshNotice()
            return .acknowledgedStop
        }
        // After sync was turned off here, the state still names the remote and holds its sealed key.
        guard let remote = standing.record?.remoteURL else { return .neverSetUp }
        if deleteRemote { try confirmDeletion(remote, standing.isOn) }
        try await coordinator.withRunLock {
            // Looked at again in its turn, once: another process may have changed it meanwhile.
            let inTurn = look()
            defer { refreshNotice(after: inTurn) }
            do {
                try await withEngine(inTurn, evenIfOff: true) { engine in
                    try await engine.disable(everywhere: remoteToo, deleteRemote: deleteRemote)
                }
            } catch  where !inTurn.reread(in: location).isOn {
                throw RemoteNotUpdated(cause: error)
            }
        }
        return .disabled(remote: remote)
    }

    /// Sets the lost state aside, in its turn under the run lock (whether it
    /// is lost is decided again then), and forgets that sync was set up.
    private func forgetLostState(whenBusy: () -> Void) async throws -> DisableOutcome {
        let remote = try SyncState.localState(look(), in: location, vault: nil).remoteLocation
        let setAside = try await coordinator.withRunLock(whenBusy: whenBusy) {
            try SyncState.setLostStateAside(look(), in: location, now: clock.now())
        }
        refreshNotice()
        return .forgotLostState(setAside: setAside, remote: remote)
    }
}
