import AuthCatCore
import AuthCatEssentials
import Foundation

/// Turning sync on: creating a remote vault, joining one, or resuming.
public enum SyncSetup {
    /// What `enable` would do with this remote; lists the remote once.
    public static func plan(vault: Vault, remote: any Remote) async throws -> SyncSetupPlan {
        do {
            return try plan(vault: vault, listing: RemoteListing(try await remote.list(prefix: "")))
        } catch let error as RemoteError where error.kind == .containerMissing {
            // A folder remote is created by `enable`; an S3 bucket never is, and enable will say so.
            return .create
        }
    }

    static func plan(vault: Vault, listing: RemoteListing) throws -> SyncSetupPlan {
        // Never joined afresh over lost state: the user says so first (`sync disable`).
        if let lost = SyncState.lostStateError(in: vault.location) { throw lost }
        let joinable = listing.joinableVaults
        if let state = try SyncStore.openIfPresent(in: vault.location)?.state(), joinable.contains(state.remoteVaultID) {
            return .resume
        }
        switch joinable.count {
        case 0: return .create
        case 1: return .join
        default:
            throw SyncError(.other, "the remote holds \(joinable.count) authcat vaults; use a location that holds only one")
        }
    }

    /// Turns sync on for `vault` with `remote`.
    ///
    /// - On a remote with no vault (or only a deletion marker), makes a new
    ///   remote vault: random master key, wrapped under an Argon2id key from
    ///   the passphrase (`kdf`, default libsodium's moderate limits) and under
    ///   a new recovery key, returned once in the result.
    /// - On a remote holding a vault, joins it with the passphrase or recovery
    ///   key; a wrong one throws `.wrongPassphrase` and nothing is written.
    /// - On the remote vault this device joined before, resumes; `secret` may be nil.
    ///
    /// It does not sync; open a `SyncEngine` and call `sync` next.
    ///
    /// - Parameters:
    ///   - deviceID: the id this device takes in a new or joined remote vault
    ///     (16 lowercase hex digits); nil, as always outside tests, for a
    ///     random one. A seeded simulation passes its own, so that a run
    ///     replays exactly: the id breaks ties between clocks.
    ///   - expected: the plan `secret` was asked for (`plan(vault:remote:)`,
    ///     before the run lock); when the remote now needs another, nothing is
    ///     written: a passphrase typed once to join must never create a vault.
    public static func enable(vault: Vault, remote: any Remote, remoteURL: String, secret: SyncSecret?,
                              kdf: KDFParameters? = nil, recorder: SyncEventRecorder,
                              clock: Clock = SystemClock(), deviceID: String? = nil,
                              expecting expected: SyncSetupPlan? = nil) async throws -> SyncEnableResult {
        recorder.record(SyncEvent(phase: .setup, kind: .started, time: clock.now()))
        do {
            let result = try await SyncRunLock.holding(in: vault.location) {
                try await remote.prepare()
                let listing = RemoteListing(try await remote.list(prefix: ""))
                if let deviceID, !RemoteLayout.isDeviceID(deviceID) {
                    throw SyncError(.other, "a device id is 16 lowercase hex digits")
                }
                let setup = SetupContext(vault: vault, remote: remote, remoteURL: remoteURL, listing: listing, clock: clock,
                                         chosenDeviceID: deviceID)
                let plan = try plan(vault: vault, listing: listing)
                if let expected, plan != expected {
                    throw SyncError(.other, "the remote changed while authcat asked for the secret; nothing was set up, try again")
                }
                switch plan {
                case .resume: return try await setup.resume()
                case .join: return try await setup.join(secret: secret)
                case .create: return try await setup.create(secret: secret, kdf: kdf ?? KDFParameters.moderate())
                }
            }
            recorder.record(SyncEvent(phase: .setup, kind: .succeeded, time: clock.now()))
            return result
        } catch {
            let failure = SyncError.wrapping(error)
            recorder.record(SyncEvent(phase: .setup, kind: .failed, time: clock.now(), failure: failure.failure))
            throw failure
        }
    }
}

/// What `SyncSetup.enable` will do on a remote, so the command line knows
/// what to ask for before calling it.
public enum SyncSetupPlan: String, Sendable, Equatable {
    /// The remote holds no vault (or only a deletion marker): a new remote vault
    /// will be made; ask for a new sync passphrase (twice).
    case create
    /// The remote holds a vault this device has not joined: ask for its sync
    /// passphrase or recovery key.
    case join
    /// The remote holds the vault this device joined before: nothing to ask.
    case resume
}
