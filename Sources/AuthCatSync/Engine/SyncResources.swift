import AuthCatCore
import AuthCatEssentials
import Foundation

/// What every stage of a sync works with: the vault, this device's sync
/// store, the remote (its requests counted for the report) and the clock.
/// The engine makes it once and hands it to each stage it runs.
struct SyncResources: Sendable {
    let vault: Vault
    let store: SyncStore
    let remote: CountingRemote
    let clock: Clock

    /// The stamping of local changes, which several stages run before they write.
    var localStamp: LocalStamp {
        LocalStamp(vault: vault, store: store, clock: clock)
    }
}
