import AuthCatCore
import Foundation

extension SyncEngine {
    /// Pulls other devices' changes, then pushes this device's.
    ///
    /// Integrity problems with single objects are reported in the result and
    /// do not stop the rest. Throws `SyncError` when the remote cannot be used
    /// at all (unreachable, deleted, a different vault): local data is never
    /// touched because of anything remote.
    public func sync(progress: ((SyncProgress) -> Void)? = nil) async throws -> SyncReport {
        throw SyncError(.other, "sync is not implemented yet")
    }

    /// Turns sync off on this device (always, first), keeping all local data
    /// and history.
    ///
    /// - Parameters:
    ///   - everywhere: also leave an authenticated marker on the remote so
    ///     every other device turns its sync off at its next contact.
    ///   - deleteRemote: delete every remote object of this vault, leaving an
    ///     authenticated deletion marker so other devices report `remote deleted`.
    public func disable(everywhere: Bool, deleteRemote: Bool) async throws {
        throw SyncError(.other, "disable is not implemented yet")
    }
}
