import AuthCatCore
import AuthCatEssentials
import Foundation

extension SyncService {
    /// What `renameDevice` did.
    public struct DeviceRename: Sendable, Equatable {
        /// The name this device had.
        public var from: String
        /// The name it has now; its next batch carries it to the other devices.
        public var to: String

        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }
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
