import AuthCatCore
import Foundation

/// Starts `authcat --home <vault> sync now --background` detached from the
/// command that changed the vault (see `DetachedLauncher`).
enum SyncBackgroundLauncher {
    /// Spawns the push; throws only if the process could not be started.
    static func launch(vaultFolder: String) throws {
        do {
            try Invocation.current.launcher.launch(["sync", "now", "--background", "--home", vaultFolder])
        } catch let failure as DetachedLauncher.Failure {
            throw SyncCommandError.cannotStartBackgroundSync(reason: failure.reason)
        }
    }
}
