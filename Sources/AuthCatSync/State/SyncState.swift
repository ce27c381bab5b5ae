import AuthCatCore
import AuthCatEssentials
import Foundation

/// This vault's sync state as one look at its files finds it: never set up,
/// lost (set up, but `sync.sqlite` is missing, emptied or damaged), off or on.
///
/// The service above takes one look per job, with `sync.sqlite` opened once
/// per service; the static questions below are for callers that must not pay for
/// a service (the hook that runs after every command).
public enum SyncState {
    /// What one look found.
    struct Standing {
        /// The open `sync.sqlite`, when it could be opened.
        var store: SyncStore?
        /// Its state row; nil when sync was never set up or the state is lost.
        var record: SyncStore.StateRecord?
        /// Why the state cannot be used though sync was set up.
        var lost: SyncError?

        /// Whether sync is on for this vault.
        var isOn: Bool { lost == nil && record?.enabled == true }

        /// The open store and state row of a sync set up here; nil when sync
        /// was never set up. The one place that says a lost state is never "off".
        ///
        /// - Throws: the lost state's `SyncError`.
        func setUp() throws -> (store: SyncStore, record: SyncStore.StateRecord)? {
            if let lost { throw lost }
            guard let store, let record else { return nil }
            return (store, record)
        }

        /// The open store and state row of a sync that is on here.
        ///
        /// - Throws: the lost state's `SyncError`, or `SyncError.syncOff`.
        func on() throws -> (store: SyncStore, record: SyncStore.StateRecord) {
            guard let setUp = try setUp(), setUp.record.enabled else { throw SyncError.syncOff }
            return setUp
        }

        /// This look brought up to date after a job that holds the run lock
        /// changed the state: the row read again from the store it opened, the
        /// files not looked at again (a look at them if the row cannot be read).
        func reread(in location: VaultLocation) -> Standing {
            guard lost == nil, let store else { return self }
            guard let record = try? store.state() else { return SyncState.look(in: location, reusing: store) }
            return Standing(store: store, record: record)
        }
    }

    /// Looks at the state of the vault at `location`. Opens no database when
    /// sync was never set up, and reuses `opened` while it is still the file
    /// at its name.
    static func look(in location: VaultLocation, reusing opened: SyncStore? = nil) -> Standing {
        let path = SyncStore.url(in: location).path
        let setUp = SyncState.SetupFile.exists(in: location)
        let present = FileManager.default.fileExists(atPath: path)
        guard setUp || present else { return Standing() }
        let remote = { SyncState.SetupFile.read(in: location)?.remote }
        do {
            guard present, let store = try opened?.ifStillAtItsName() ?? SyncStore.openIfPresent(in: location)
            else {
                return Standing(lost: .stateLost(path, "is missing", remote: remote()))
            }
            guard let record = try store.state() else {
                let lost: SyncError? =
                    setUp ? .stateLost(path, "holds no sync state (it was emptied)", remote: remote()) : nil
                return Standing(store: store, lost: lost)
            }
            // Setups made before the setup file existed get it now.
            try? SyncState.SetupFile.record(record, in: location)
            return Standing(store: store, record: record)
        } catch let error as SyncError {
            return Standing(lost: .stateLost(path, "cannot be read (\(error.message))", remote: remote()))
        } catch {
            return Standing(lost: .stateLost(path, "cannot be read", remote: remote()))
        }
    }

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
        look(in: location).lost
    }

    /// Clears a stop that another device caused (it deleted the remote data,
    /// or the remote now holds another vault) once the user acknowledged it:
    /// sync stays off and local data is kept, but the stop is no longer a
    /// problem to report. The caller holds the run lock.
    /// - Returns: whether there was such a stop to acknowledge.
    static func acknowledgeStop(_ standing: Standing) throws -> Bool {
        guard let store = standing.store, let record = standing.record, !record.enabled,
            record.remoteDeleted || record.vaultMismatch || record.revoked
        else { return false }
        try store.updateState { state in
            state.remoteDeleted = false
            state.vaultMismatch = false
            state.revoked = false
        }
        return true
    }

    /// Sets the lost or damaged state aside (`sync.sqlite` renamed to
    /// `sync.sqlite.lost-<time>`, never deleted) and forgets that sync was
    /// set up, so that `enable` can join again as a new device. Does nothing
    /// unless the state is lost. The caller holds the run lock, so that no
    /// sync sees its state files renamed under it.
    ///
    /// - Returns: the name the state was set aside under, if there was a file.
    static func setLostStateAside(_ standing: Standing, in location: VaultLocation, now: Date) throws -> String? {
        guard standing.lost != nil else { return nil }
        let path = SyncStore.url(in: location).path
        let aside = "\(path).lost-\(now.unixMilliseconds)"
        var setAside: String?
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            guard rename(path + suffix, aside + suffix) == 0 else {
                throw SecureFile.writeError(path + suffix, errno: errno)
            }
            if suffix.isEmpty { setAside = aside }
        }
        guard unlink(SyncState.SetupFile.url(in: location).path) == 0 || errno == ENOENT else {
            throw SecureFile.writeError(SyncState.SetupFile.url(in: location).path, errno: errno)
        }
        return setAside
    }
}
