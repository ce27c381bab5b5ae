import AuthCatCore
import Foundation
import GRDB

/// Cheap questions about this vault's sync state, for callers that must not
/// pay for opening the engine (the hook that runs after every command).
public enum SyncState {
    /// Whether sync is on for the vault at `location`. Opens no database when
    /// sync was never set up; any problem reading the state counts as off.
    public static func isEnabled(in location: VaultLocation) -> Bool {
        guard FileManager.default.fileExists(atPath: SyncStore.url(in: location).path) else { return false }
        return (try? SyncStore.openIfPresent(in: location)?.state()?.enabled) ?? false
    }

    /// This device's sync state as the monitor shows it; `.off` if sync was never set up.
    ///
    /// `pendingLocalChanges` is filled only when a vault is given.
    public static func localState(in location: VaultLocation, vault: Vault? = nil) throws -> SyncLocalState {
        guard let store = try SyncStore.openIfPresent(in: location), let state = try store.state() else { return .off }
        let peers = try store.read { try SyncPeerRecord.fetchAll($0) }
        var devices = peers.map {
            SyncDeviceSeen(id: $0.deviceID, name: $0.name, lastSeen: $0.lastSeen.map(Date.init(unixMilliseconds:)))
        }
        let ownName = vault?.identity.deviceName ?? "this device"
        devices.append(SyncDeviceSeen(id: state.deviceID, name: ownName, isThisDevice: true))
        devices.sort { ($0.name, $0.id) < ($1.name, $1.id) }
        return SyncLocalState(
            isEnabled: state.enabled, remoteLocation: state.remoteURL,
            lastSuccessfulSync: state.lastSuccessfulSync.map(Date.init(unixMilliseconds:)),
            pendingLocalChanges: try vault.map { try SyncEngine.pendingLocalChanges(store: store, vault: $0) },
            batchesSinceSnapshot: SyncEngine.batchesSinceSnapshot(state),
            rejectedObjects: try store.read { try SyncRejectedRecord.order(Column("name")).fetchAll($0) }.map(\.rejectedObject),
            devicesSeen: devices, remoteDeleted: state.remoteDeleted, vaultMismatch: state.vaultMismatch,
            disabledEverywhere: state.disabledEverywhere)
    }
}
