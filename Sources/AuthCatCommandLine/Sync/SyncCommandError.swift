import AuthCatCore
import AuthCatEssentials

/// Problems the `sync` commands find before the sync engine is involved.
enum SyncCommandError: UserFacingError {
    case syncOff
    case alreadyOn(remote: String)
    case recoveryKeyNeedsExistingVault(remote: String)
    case recoveryKeyFileExists(String)
    case cannotWriteRecoveryKey(String, reason: String)
    case deleteNeedsConfirmation
    case cleartextNeedsOptIn(endpoint: String)
    case cleartextDeclined
    case notDeleted(syncOn: Bool)
    case neverSetUp
    case cannotStartBackgroundSync(reason: String)
    case firstSyncFailed(Error)
    case remoteNotUpdated(Error)
    case lostStateCannotReachRemote
    case remoteHasProblems(Int)
    case differentVaultNeedsConfirmation(remote: String)
    case differentVaultNotJoined
    case newVaultNotCreated

    var description: String {
        switch self {
        case .syncOff:
            NextStep.advised("sync is off for this vault", .enableSync)
        case .alreadyOn(let remote):
            "sync is already on with \(remote); to use another remote, run authcat sync disable first"
        case .recoveryKeyNeedsExistingVault(let remote):
            "\(remote) holds no vault to join, and a recovery key can only join one; leave out --use-recovery-key to create it"
        case .recoveryKeyFileExists(let path):
            "\(path) already exists; choose a new file for the recovery key, so no file is overwritten"
        case .cannotWriteRecoveryKey(let path, let reason):
            "cannot write the recovery key to \(path): \(reason)"
        case .deleteNeedsConfirmation:
            "--delete-remote deletes every device's synced data; without a terminal to confirm, add --yes"
        case .cleartextNeedsOptIn(let endpoint):
            "\(endpoint) is plain http to another machine, where the synced objects travel unencrypted and can be altered; "
                + "use https, or without a terminal to confirm, add --allow-http"
        case .cleartextDeclined:
            "sync was not turned on; use an https:// endpoint, or confirm the http:// one"
        case .notDeleted(let syncOn):
            syncOn ? "nothing was deleted, and sync is still on" : "nothing was deleted"
        case .neverSetUp:
            "sync was never set up for this vault, so there is no remote to turn off or delete"
        case .cannotStartBackgroundSync(let reason):
            "cannot start the background sync: \(reason)"
        case .firstSyncFailed(let error):
            "sync is on, but the first sync failed: \(Self.describe(error, otherwise: .syncNow))"
        case .lostStateCannotReachRemote:
            "this device's sync state was lost, and with it the key to the remote; nothing was changed. Run "
                + "'authcat sync disable' without options to forget the lost state, or run this command on another device"
        case .remoteHasProblems(let count):
            "the sync finished, but the remote has \(count) problem\(count == 1 ? "" : "s") that stay until it is repaired; "
                + "see: authcat sync status"
        case .differentVaultNeedsConfirmation(let remote):
            "\(remote) now holds a different vault than the one this device synced with there; nothing was set up. "
                + "Without a terminal to confirm, add --join-different-vault to join it"
        case .differentVaultNotJoined:
            "nothing was set up, and sync stays off"
        case .newVaultNotCreated:
            "nothing was set up, and sync stays off; check the location, or to join an existing vault, name where it is"
        case .remoteNotUpdated(let error):
            "sync is off on this device, but the remote could not be updated (\(Self.what(error))); "
                + "to try again, run this command again"
        }
    }

    /// A safe description of an error from elsewhere, with its next step worded
    /// (or `fallback`, when it names none): only `UserFacingError`s are shown verbatim.
    static func describe(_ error: Error, otherwise fallback: NextStep? = nil) -> String {
        NextStep.advised(what(error), (error as? UserFacingError)?.nextStep ?? fallback)
    }

    /// What went wrong, without advice: only `UserFacingError`s are shown verbatim.
    static func what(_ error: Error) -> String {
        (error as? UserFacingError)?.description ?? UnexpectedError.message("sync", error)
    }
}
