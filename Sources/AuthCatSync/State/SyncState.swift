import AuthCatCore
import AuthCatEssentials
import Foundation
import GRDB

/// Cheap questions about this vault's sync state, for callers that must not
/// pay for opening the engine (the hook that runs after every command).
public enum SyncState {
    /// Whether sync is on for the vault at `location`. Opens no database when
    /// sync was never set up; any problem reading the state counts as off
    /// here (`lostStateError(in:)` tells whether that is a problem).
    public static func isEnabled(in location: VaultLocation) -> Bool {
        guard FileManager.default.fileExists(atPath: SyncStore.url(in: location).path) else { return false }
        return (try? SyncStore.openIfPresent(in: location)?.state()?.enabled) ?? false
    }

    /// Why this vault's sync state cannot be used, or nil when it can or sync
    /// was never set up: `sync.sqlite` is damaged, or it is missing or holds
    /// no state though `sync-setup.json` says sync was set up here.
    public static func lostStateError(in location: VaultLocation) -> SyncError? {
        let path = SyncStore.url(in: location).path
        let setUp = SyncSetupFile.exists(in: location)
        guard setUp || FileManager.default.fileExists(atPath: path) else { return nil }
        let remote = SyncSetupFile.read(in: location)?.remote
        do {
            guard let store = try SyncStore.openIfPresent(in: location) else {
                return .stateLost(path, "is missing", remote: remote)
            }
            guard let state = try store.state() else {
                return setUp ? .stateLost(path, "holds no sync state (it was emptied)", remote: remote) : nil
            }
            // Setups made before the setup file existed get it now.
            try? SyncSetupFile.record(state, in: location)
            return nil
        } catch let error as SyncError {
            return .stateLost(path, "cannot be read (\(error.message))", remote: remote)
        } catch {
            return .stateLost(path, "cannot be read", remote: remote)
        }
    }

    /// Acknowledges that sync stopped because another device deleted the
    /// remote data, or because the remote now holds another vault (`sync
    /// disable` run after it): sync stays off and local data is kept, but the
    /// stop is no longer a problem to report, so `sync status` says `off`
    /// and the warning on every command ends.
    /// - Returns: whether there was such a stop to acknowledge.
    public static func acknowledgeStop(in location: VaultLocation, whenBusy: () -> Void = {}) async throws -> Bool {
        guard FileManager.default.fileExists(atPath: SyncStore.url(in: location).path) else { return false }
        return try await SyncRunLock.holding(in: location, whenBusy: whenBusy) {
            guard let store = try SyncStore.openIfPresent(in: location), let state = try store.state(),
                !state.enabled, state.remoteDeleted || state.vaultMismatch
            else { return false }
            try store.updateState { state in
                state.remoteDeleted = false
                state.vaultMismatch = false
            }
            return true
        }
    }

    /// Sets the lost or damaged state aside (`sync.sqlite` renamed to
    /// `sync.sqlite.lost-<time>`, never deleted) and forgets that sync was
    /// set up, so that `enable` can join again as a new device. Does nothing
    /// unless `lostStateError(in:)` finds a problem.
    ///
    /// It takes its turn under the run lock, as every sync does: a sync or
    /// `enable` that runs now must never see its state files renamed under it,
    /// and whether the state is lost is decided again once it is this one's turn.
    ///
    /// - Parameter whenBusy: called once, before waiting, when another sync runs.
    /// - Returns: the name the state was set aside under, if there was a file.
    @discardableResult
    public static func forgetLostState(
        in location: VaultLocation, now: Date = Date(),
        whenBusy: () -> Void = {}
    ) async throws -> String? {
        try await SyncRunLock.holding(in: location, whenBusy: whenBusy) {
            try setLostStateAside(in: location, now: now)
        }
    }

    private static func setLostStateAside(in location: VaultLocation, now: Date) throws -> String? {
        guard lostStateError(in: location) != nil else { return nil }
        let path = SyncStore.url(in: location).path
        let aside = "\(path).lost-\(now.unixMilliseconds)"
        var setAside: String?
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            guard rename(path + suffix, aside + suffix) == 0 else {
                throw SecureFile.writeError(path + suffix, errno: errno)
            }
            if suffix.isEmpty { setAside = aside }
        }
        guard unlink(SyncSetupFile.url(in: location).path) == 0 || errno == ENOENT else {
            throw SecureFile.writeError(SyncSetupFile.url(in: location).path, errno: errno)
        }
        return setAside
    }

    /// This device's sync state as the monitor shows it; `.off` if sync was
    /// never set up; with `stateProblem` set when its state was lost.
    ///
    /// `pendingLocalChanges` is filled only when a vault is given.
    public static func localState(in location: VaultLocation, vault: Vault? = nil) throws -> SyncLocalState {
        if let lost = lostStateError(in: location) {
            var local = SyncLocalState.off
            local.remoteLocation = SyncSetupFile.read(in: location)?.remote
            local.stateProblem = lost.failure
            return local
        }
        guard let store = try SyncStore.openIfPresent(in: location), let state = try store.state() else { return .off }
        let peers = try store.read { try SyncPeerRecord.fetchAll($0) }
        var devices = peers.map {
            SyncDeviceSeen(id: $0.deviceID, name: $0.name, lastSeen: $0.lastSeen.map(Date.init(unixMilliseconds:)))
        }
        let ownName = vault?.identity.deviceName ?? "this device"
        devices.append(SyncDeviceSeen(id: state.deviceID, name: ownName, isThisDevice: true))
        devices.sort { ($0.name, $0.id) < ($1.name, $1.id) }
        return SyncLocalState(
            isEnabled: state.enabled, remoteLocation: state.remoteURL, remoteVaultID: state.remoteVaultID,
            lastSuccessfulSync: state.lastSuccessfulSync.map(Date.init(unixMilliseconds:)),
            pendingLocalChanges: try vault.map { try SyncEngine.pendingLocalChanges(store: store, vault: $0) },
            batchesSinceSnapshot: SyncEngine.batchesSinceSnapshot(state),
            rejectedObjects: try store.read { try SyncRejectedRecord.order(Column("name")).fetchAll($0) }.map(
                \.rejectedObject),
            standingIssues: try store.read { try SyncIssueRecord.order(Column("kind"), Column("subject")).fetchAll($0) }
                .map(\.standingIssue),
            devicesSeen: devices, remoteDeleted: state.remoteDeleted, vaultMismatch: state.vaultMismatch,
            disabledEverywhere: state.disabledEverywhere, createOnlyEnforced: state.createOnlyEnforced)
    }
}
