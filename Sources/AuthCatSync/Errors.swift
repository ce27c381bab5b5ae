import AuthCatCore
import AuthCatEssentials

/// Why sync setup, a sync or a disable failed, said so the user knows what to do.
///
/// `category` tells the monitor which status to show. Messages never contain a
/// passphrase, a key, a secret or object contents.
public struct SyncError: UserFacingError, Equatable {
    public var category: SyncFailure.Category
    public var message: String
    /// What the user can do about it; the command line words it.
    public var nextStep: NextStep?
    /// The error this one explains (a `RemoteError`, a vault error…), kept
    /// for callers and tests that need more than the category; nil when the
    /// sync engine itself found the problem.
    public var cause: (any Error)?

    public init(
        _ category: SyncFailure.Category, _ message: String, next nextStep: NextStep? = nil,
        cause: (any Error)? = nil
    ) {
        self.category = category
        self.message = message
        self.nextStep = nextStep
        self.cause = cause
    }

    /// Two errors are the same when they say the same; the cause only explains.
    public static func == (lhs: SyncError, rhs: SyncError) -> Bool {
        lhs.category == rhs.category && lhs.message == rhs.message && lhs.nextStep == rhs.nextStep
    }

    public var description: String { message }

    /// The record the monitor stores for this error.
    public var failure: SyncFailure { SyncFailure(category: category, message: message, nextStep: nextStep) }

    /// Sync is off on this device (or was never set up): there is nothing to sync.
    public static let syncOff = SyncError(.other, "sync is off for this vault", next: .enableSync)

    static let wrongPassphrase = SyncError(
        .wrongPassphrase, "wrong sync passphrase or recovery key; nothing was changed")
    /// The secret given opens the remote vault's keys only up to before a
    /// proved rotation that put newer secrets in force (a passphrase change).
    static func supersededSecret(epoch: Int64) -> SyncError {
        SyncError(
            .wrongPassphrase,
            "the sync passphrase (or recovery key) given was replaced by a newer one when the keys moved to key "
                + "epoch \(epoch); it opens nothing written since, and nothing was changed: give the newer one")
    }
    static let secretRequired = SyncError(
        .other, "joining this remote vault needs its sync passphrase or recovery key")
    static let passphraseRequiredToCreate = SyncError(
        .other, "creating a remote vault needs a new sync passphrase; a recovery key can only join an existing one")

    static func vaultMismatch(_ location: String) -> SyncError {
        SyncError(
            .vaultMismatch,
            "\(location) now holds a different vault than the one this device joined; "
                + "sync stopped and local data was left untouched", next: .switchRemote)
    }

    static func differentVault(_ location: String) -> SyncError {
        SyncError(
            .vaultMismatch,
            "\(location) now holds a different vault than the one this device synced with there; "
                + "nothing was set up. Join it only if you know why it changed", next: .joinDifferentVault)
    }

    static func remoteDeleted(_ location: String) -> SyncError {
        SyncError(
            .remoteDeleted,
            "the remote data at \(location) was deleted by another device; sync is off here and "
                + "local data was kept", next: .enableSync)
    }

    static func revoked(epoch: Int64) -> SyncError {
        SyncError(
            .revoked,
            "a key rotation on another device (key epoch \(epoch)) revoked this device: it no longer syncs, and "
                + "local data was kept ('authcat sync disable' acknowledges it)")
    }

    static func disabledElsewhere(_ location: String) -> SyncError {
        SyncError(
            .disabledElsewhere,
            "sync was turned off on every device by another device; sync is off here and "
                + "local data was kept", next: .enableSync)
    }

    static func noVaultOnRemote(_ location: String) -> SyncError {
        SyncError(
            .containerMissing,
            "\(location) holds no authcat vault (was it emptied, or is the wrong folder mounted?); "
                + "sync stopped and local data was left untouched")
    }

    static func busy() -> SyncError {
        SyncError(.other, "another authcat process is syncing this vault; try again when it is done")
    }

    /// Sync was set up for this vault, but its state file is gone, emptied or damaged.
    static func stateLost(_ path: String, _ detail: String, remote: String?) -> SyncError {
        let synced = remote.map { " with \($0)" } ?? ""
        return SyncError(
            .other,
            "the sync state file \(path) \(detail), though sync was set up for this vault; local data is "
                + "intact, but this device no longer knows what it synced\(synced)", next: .rejoinSync)
    }

    static func malformedState(_ path: String, _ detail: String) -> SyncError {
        SyncError(.other, "the sync state file \(path) is damaged (\(detail))", next: .rejoinSync)
    }

    /// Maps any error met while syncing to a `SyncError` with the right category.
    static func wrapping(_ error: Error) -> SyncError {
        switch error {
        case let error as SyncError: return error
        case let error as RemoteError: return SyncError(category(of: error), error.description, cause: error)
        case let error as UserFacingError:
            return SyncError(.other, error.description, next: error.nextStep, cause: error)
        default: return SyncError(.other, UnexpectedError.message("sync", error), cause: error)
        }
    }

    static func category(of error: RemoteError) -> SyncFailure.Category {
        switch error.kind {
        case .unreachable: .unreachable
        case .credentialsRejected: .credentialsRejected
        case .containerMissing: .containerMissing
        case .invalidLocation, .invalidObjectName, .protocolError, .io, .objectRefused: .other
        }
    }
}

/// Why the sync monitor could not read or write its own files.
public enum SyncMonitorError: UserFacingError, Equatable {
    case cannotRead(String, reason: String)
    case cannotWrite(String, reason: String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): "cannot read the sync monitor file \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write the sync monitor file \(path): \(reason)"
        }
    }
}

/// Why a remote object was rejected. Never names its contents.
enum SyncObjectError: UserFacingError, Equatable {
    case notAuthentic
    case badPadding
    case malformed(String)
    case wrongObject(String)
    /// A clock more than a day ahead of this device's: this device's own
    /// clock may be behind, so it is read again on every sync.
    case clockAhead(wall: Int64)

    var description: String {
        switch self {
        case .notAuthentic: "failed authentication (tampered, truncated, or moved from another name)"
        case .badPadding: "bad padding"
        case .malformed(let what): "malformed contents: \(what)"
        case .wrongObject(let what): "does not belong here: \(what)"
        case .clockAhead(let wall):
            "a clock (\(wall) ms) is more than a day ahead of this device's clock; read again on every sync, "
                + "in case this device's clock is behind"
        }
    }
}

/// The local sync state file holds something this version cannot read.
enum SyncStoreError: UserFacingError {
    case malformed(String)

    var description: String {
        switch self {
        case .malformed(let detail): "the sync state file is damaged: \(detail)"
        }
    }
}

/// Why a remote operation failed.
///
/// Locations are display locations (no credentials); reasons never contain
/// credentials, signatures or object contents. `kind` groups the cases into
/// the states the sync monitor reports.
public enum RemoteError: UserFacingError, Equatable {
    /// The store could not be reached: no network, connection refused, timeout.
    case unreachable(location: String, reason: String)
    /// The store refused the credentials (S3 403: unknown key, bad signature,
    /// access denied; WebDAV 401); the reason says what to check, in the store's own terms.
    case credentialsRejected(location: String, reason: String)
    /// No credentials were found for the store (nothing in the environment or the credentials file).
    case credentialsMissing(location: String, reason: String)
    /// The bucket or folder that should hold the objects does not exist.
    case containerMissing(location: String)
    /// The location URL cannot be used; `location` is already stripped of credentials.
    case invalidLocation(location: String, reason: String)
    /// An object name or list prefix breaks `RemoteObjectName`'s rules.
    case invalidObjectName(name: String, reason: String)
    /// The store answered something unexpected; `status` is the HTTP status, if any.
    case protocolError(location: String, status: Int?, detail: String)
    /// A local file operation failed (folder remote, credentials file).
    case io(path: String, operation: String, reason: String)
    /// The object is not read because of what it is: larger than
    /// `RemoteObject.maximumSize`, not a plain file, or reached through a link.
    case objectRefused(name: String, reason: String)

    /// The broad class of a failure, for mapping to a sync status.
    public enum Kind: String, Sendable, Equatable {
        case unreachable, credentialsRejected, containerMissing, invalidLocation
        case invalidObjectName, protocolError, io, objectRefused
    }

    public var kind: Kind {
        switch self {
        case .unreachable: .unreachable
        case .credentialsRejected: .credentialsRejected
        // Missing and rejected credentials call for the same fix, so they share a kind.
        case .credentialsMissing: .credentialsRejected
        case .containerMissing: .containerMissing
        case .invalidLocation: .invalidLocation
        case .invalidObjectName: .invalidObjectName
        case .protocolError: .protocolError
        case .io: .io
        case .objectRefused: .objectRefused
        }
    }

    public var description: String {
        switch self {
        case .unreachable(let location, let reason):
            "cannot reach \(location): \(reason); check the network connection and that the server is running"
        case .credentialsRejected(let location, let reason):
            "\(location) rejected the credentials: \(reason)"
        case .credentialsMissing(let location, let reason):
            "no credentials for \(location): \(reason)"
        case .containerMissing(let location):
            "\(location) does not exist; create the bucket or folder, or check the sync location"
        case .invalidLocation(let location, let reason):
            "invalid sync location \(location.debugDescription): \(reason)"
        case .invalidObjectName(let name, let reason):
            "invalid remote object name \(name.debugDescription): \(reason)"
        case .protocolError(let location, let status, let detail):
            "unexpected reply from \(location)\(status.map { " (HTTP \($0))" } ?? ""): \(detail)"
        case .io(let path, let operation, let reason):
            "cannot \(operation) \(path): \(reason)"
        case .objectRefused(let name, let reason):
            "the remote object \(name) is not read: \(reason)"
        }
    }
}

extension DeviceDirectory {
    /// Why a word does not name one device, or a name cannot be taken. The
    /// command line treats these as usage errors: nothing was changed.
    /// Lists ids and names only, never a key.
    public enum NamingError: UserFacingError, Equatable {
        case unknown(String, candidates: [DeviceDirectory.Device])
        case ambiguous(String, candidates: [DeviceDirectory.Device])
        /// A prefix of an id shorter than `DeviceDirectory.minimumPrefixLength`.
        case prefixTooShort(String, candidates: [DeviceDirectory.Device])
        case invalidName(String)
        /// Another device of the remote vault has this name.
        case nameTaken(String, by: DeviceDirectory.Device)
        /// Sync never joined a remote vault here, so there are no devices to name.
        case noDevices

        public var description: String {
            switch self {
            case .unknown(let word, let candidates):
                "no device is named '\(word)'; "
                    + (candidates.isEmpty ? "no device is known yet" : "the devices are \(Self.list(candidates))")
            case .ambiguous(let word, let candidates):
                "'\(word)' names \(candidates.count) devices: \(Self.list(candidates)); give the whole id"
            case .prefixTooShort(let word, let candidates):
                "'\(word)' is too short to name a device: give at least \(DeviceDirectory.minimumPrefixLength) "
                    + "digits of its id (it starts \(Self.list(candidates)))"
            case .invalidName(let problem): problem
            case .nameTaken(let name, let device) where device.name == name:
                "another device is already named '\(name)' (\(device.id)); choose another name"
            case .nameTaken(let name, let device):
                "'\(DeviceName.escaped(name))' looks too like the name of another device, \(device.label), to tell "
                    + "them apart; choose another name"
            case .noDevices: "sync was never turned on for this vault, so it knows no devices"
            }
        }

        /// At most ten devices, so a large vault still gives one readable line.
        private static func list(_ devices: [DeviceDirectory.Device]) -> String {
            let shown = devices.prefix(10).map(\.label).joined(separator: ", ")
            return devices.count > 10 ? shown + " and \(devices.count - 10) more" : shown
        }
    }
}
