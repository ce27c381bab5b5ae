import AuthCatCore
import AuthCatEssentials

/// Why a remote operation failed.
///
/// Locations are display locations (no credentials); reasons never contain
/// credentials, signatures or object contents. `kind` groups the cases into
/// the states the sync monitor reports.
public enum RemoteError: UserFacingError, Equatable {
    /// The store could not be reached: no network, connection refused, timeout.
    case unreachable(location: String, reason: String)
    /// The store refused the credentials (S3 403: unknown key, bad signature, access denied).
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
            "\(location) rejected the credentials: \(reason); check the access key, secret and permissions"
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
