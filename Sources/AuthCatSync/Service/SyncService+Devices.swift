import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncService {
    /// Every device of the remote vault this device joined, as its syncs
    /// found them (nothing is asked of the remote): to list them, or to
    /// resolve a device named on the command line (`DeviceDirectory.resolve`).
    ///
    /// - Throws: the lost state's `SyncError`, or
    ///   `DeviceDirectory.NamingError.noDevices` when sync was never set up.
    public func devices() throws -> DeviceDirectory {
        guard let (store, record) = try look().setUp() else { throw DeviceDirectory.NamingError.noDevices }
        return try DeviceDirectory.read(from: store, state: record, vaultDeviceName: vault.identity.deviceName)
    }

    /// Renames this device on the remote vault: the new name goes out with its
    /// next sync (a batch is written for it even when nothing else changed),
    /// and the other devices show it after they sync. Nothing is asked of
    /// the remote here.
    ///
    /// - Throws: `DeviceDirectory.NamingError.invalidName` for a name the
    ///   rules refuse, `.nameTaken` when another known device has it (both
    ///   with nothing changed), the lost state's `SyncError`, or `.noDevices`
    ///   when sync was never set up.
    public func renameDevice(to name: String, whenBusy: () -> Void = {}) async throws -> DeviceRename {
        let name = try DeviceName.validated(name)
        return try await coordinator.withRunLock(whenBusy: whenBusy) {
            let directory = try devices()
            guard let store = look().store, let this = directory.thisDevice else {
                throw DeviceDirectory.NamingError.noDevices
            }
            if let other = directory.otherDevice(named: name) {
                throw DeviceDirectory.NamingError.nameTaken(name, by: other)
            }
            try store.updateState { $0.deviceName = name }
            return DeviceRename(from: this.displayName, to: name)
        }
    }
}
