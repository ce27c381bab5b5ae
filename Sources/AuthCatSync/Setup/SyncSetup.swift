import AuthCatCore
import AuthCatEssentials
import Foundation

/// Turning sync on: creating a remote vault, joining one, or resuming.
enum SyncSetup {
    /// What `enable` would do with this remote; lists the remote once (and
    /// reads a deletion marker of the vault this device joined, if there is one).
    ///
    /// - Parameter remoteURL: the location as the user gave it, to tell
    ///   whether this device synced there before; nil for the remote's own.
    static func plan(vault: Vault, remote: any Remote, remoteURL: String? = nil) async throws -> SyncSetupPlan {
        let listing: RemoteListing
        do {
            listing = RemoteListing(try await remote.list(prefix: ""))
        } catch let error as RemoteError where error.kind == .containerMissing {
            // A folder remote is created by `enable`; an S3 bucket never is, and enable will say so.
            return .create
        }
        return try await plan(
            vault: vault, remote: remote, remoteURL: remoteURL ?? remote.displayLocation, listing: listing
        ).plan
    }

    /// The plan, and the remote vault a join would join.
    static func plan(
        vault: Vault, remote: any Remote, remoteURL: String,
        listing: RemoteListing
    ) async throws -> (plan: SyncSetupPlan, vaultToJoin: String?) {
        // Never joined afresh over lost state: the user says so first (`sync disable`).
        if let lost = SyncState.lostStateError(in: vault.location) { throw lost }
        let store = try SyncStore.openIfPresent(in: vault.location)
        var state = try store?.state()
        // A device a rotation revoked never resumes under its old id: with
        // the passphrase it joins again as a new device.
        if let store, let revoked = state, try store.isRevoked(revoked.deviceID) { state = nil }
        var deleted: Set<String> = []
        if let state {
            switch try await standing(of: state, vault: vault, remote: remote, listing: listing) {
            case .live: return (.resume, nil)
            case .deleted: deleted.insert(state.remoteVaultID)
            case .absent: break
            }
        }
        let joinable = listing.manifests.subtracting(deleted)
        switch joinable.count {
        case 0:
            // A vault's objects without its manifest: the manifest was hidden, or a deletion stopped
            // part-way. A new vault beside them would split the devices.
            if let stranded = Set(listing.names.keys).subtracting(deleted).sorted().first {
                throw SyncError(
                    .other,
                    "the remote holds an authcat vault (\(stranded)) without its manifest; nothing was set up, "
                        + "so that no second vault is made beside it. Put its manifest back, or use another location")
            }
            return (.create, nil)
        case 1:
            let other = joinable.first
            guard let state, !state.remoteDeleted, sameLocation(state.remoteURL, remoteURL) else {
                return (.join, other)
            }
            return (.joinDifferentVault, other)
        default:
            throw SyncError(
                .other, "the remote holds \(joinable.count) authcat vaults; use a location that holds only one")
        }
    }

    /// What has become of the remote vault this device joined.
    private enum Standing { case live, deleted, absent }

    /// A deletion marker counts only once it opens with the key this device
    /// keeps; a vault whose objects are there is live even without its
    /// manifest (the sync then reports the manifest missing), so that a
    /// planted marker or a hidden manifest never makes `enable` start a
    /// second vault beside it.
    private static func standing(
        of state: SyncStore.StateRecord, vault: Vault, remote: any Remote,
        listing: RemoteListing
    ) async throws -> Standing {
        let vaultID = state.remoteVaultID
        if listing.deletedMarkers.contains(vaultID) {
            let keys = try SyncKeys.unsealLocally(
                state.sealedMasterKey, vault: vault, remoteVaultID: vaultID, deviceID: state.deviceID)
            if try await MarkerCheck(remote: remote, vaultID: vaultID, objectKey: keys.objectKey)
                .opens(RemoteLayout.deletedMarker(vaultID), .deleted)
            {
                return .deleted
            }
        }
        return listing.hasObjects(of: vaultID) ? .live : .absent
    }

    /// Whether two location URLs name the same remote.
    static func sameLocation(_ first: String, _ second: String) -> Bool {
        guard let a = try? RemoteLocation(parsing: first), let b = try? RemoteLocation(parsing: second) else {
            return first == second
        }
        switch (a, b) {
        case (.folder(let one), .folder(let two)):
            return URL(fileURLWithPath: one).standardizedFileURL.path
                == URL(fileURLWithPath: two).standardizedFileURL.path
        default:
            return a == b
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
    /// It does not sync, and takes no lock: its caller (the service's `enable`)
    /// holds the run lock and syncs next.
    ///
    /// - Parameters:
    ///   - deviceID: the id this device takes in a new or joined remote vault
    ///     (16 lowercase hex digits); nil, as always outside tests, for a
    ///     random one. A seeded simulation passes its own, so that a run
    ///     replays exactly: the id breaks ties between clocks.
    ///   - expected: the plan `secret` was asked for (`plan(vault:remote:)`,
    ///     before the run lock); when the remote now needs another, nothing is
    ///     written: a passphrase typed once to join must never create a vault.
    ///     `.joinDifferentVault` is also the user's confirmation: without it,
    ///     such a join throws and writes nothing.
    static func enable(
        vault: Vault, remote: any Remote, remoteURL: String, secret: SyncSecret?,
        kdf: KDFParameters? = nil, recorder: SyncEventRecorder,
        clock: Clock = SystemClock(), deviceID: String? = nil, naming: SetupContext.Naming? = nil,
        expecting expected: SyncSetupPlan? = nil
    ) async throws -> SyncEnableResult {
        recorder.record(SyncEvent(phase: .setup, kind: .started, time: clock.now()))
        do {
            let result = try await setUp(
                vault: vault, remote: remote, remoteURL: remoteURL, secret: secret, kdf: kdf, clock: clock,
                deviceID: deviceID, naming: naming ?? SetupContext.Naming(vault: vault), expecting: expected)
            recorder.record(SyncEvent(phase: .setup, kind: .succeeded, time: clock.now()))
            return result
        } catch let interrupted as PromptInterrupted {
            // Ctrl-C at a question (the vault's passphrase): the setup was
            // interrupted, as `sync status` then says, not failed; the command
            // ends as at every question.
            throw interrupted
        } catch {
            let failure = SyncError.wrapping(error)
            recorder.record(SyncEvent(phase: .setup, kind: .failed, time: clock.now(), failure: failure.failure))
            throw failure
        }
    }

    /// `enable`'s steps, between its events.
    private static func setUp(
        vault: Vault, remote: any Remote, remoteURL: String, secret: SyncSecret?, kdf: KDFParameters?,
        clock: Clock, deviceID: String?, naming: SetupContext.Naming, expecting expected: SyncSetupPlan?
    ) async throws -> SyncEnableResult {
        try await remote.prepare()
        let listing = RemoteListing(try await remote.list(prefix: ""))
        if let deviceID, !RemoteLayout.isDeviceID(deviceID) {
            throw SyncError(.other, "a device id is 16 lowercase hex digits")
        }
        let (plan, vaultToJoin) = try await plan(vault: vault, remote: remote, remoteURL: remoteURL, listing: listing)
        if let expected, plan != expected {
            throw SyncError(
                .other, "the remote changed while authcat asked for the secret; nothing was set up, try again")
        }
        let setup = SetupContext(
            vault: vault, remote: remote, remoteURL: remoteURL, listing: listing, clock: clock,
            chosenDeviceID: deviceID, vaultToJoin: vaultToJoin, naming: naming)
        switch plan {
        case .resume: return try await setup.resume()
        case .join: return try await setup.join(secret: secret)
        case .joinDifferentVault:
            // Only a plan the user confirmed (`expected`) joins another vault where this device synced before.
            guard expected == .joinDifferentVault else { throw SyncError.differentVault(remote.displayLocation) }
            return try await setup.join(secret: secret)
        case .create: return try await setup.create(secret: secret, kdf: kdf ?? KDFParameters.moderate())
        }
    }
}
