import AuthCatCore
import AuthCatEssentials
import Foundation

extension RemoteLocation {
    /// Makes the remote for this location, ready for its first request.
    ///
    /// S3 credentials are resolved now (see `S3Credentials.resolve`), from
    /// `environment` and `homeDirectory` rather than the process's own, so
    /// that callers and tests decide where they come from. No request is
    /// made; call `prepare()` to check the remote.
    ///
    /// A WebDAV password comes from `password` (the named file, then a
    /// terminal) or `~/.netrc`, in the order `WebDAVPasswordSource` says;
    /// `createOnlyEnforced` is what the probe at `enable` found. rclone is
    /// looked for and started now (no request to its remote is made), and
    /// given `environment`.
    ///
    /// - Throws: `RemoteError.credentialsMissing`, `.invalidLocation`, `.io`, or `.unreachable` when rclone does
    ///   not start.
    public func makeRemote(
        environment: [String: String], homeDirectory: String, clock: any AuthCatEssentials.Clock = SystemClock(),
        password: WebDAVPasswordSource = .netrcOnly, createOnlyEnforced: Bool? = nil
    ) async throws -> any Remote {
        switch self {
        case .folder(let path):
            return try FolderRemote(path: path)
        case .s3(let configuration):
            let credentials = try S3Credentials.resolve(
                profile: configuration.profile, environment: environment, homeDirectory: homeDirectory,
                location: configuration.displayLocation)
            return S3Remote(configuration: configuration, credentials: credentials, clock: clock)
        case .webDAV(let configuration):
            let credentials = try password.credentials(for: configuration, homeDirectory: homeDirectory)
            return WebDAVRemote(
                configuration: configuration, credentials: credentials, createOnlyEnforced: createOnlyEnforced)
        case .rclone(let configuration):
            return try await RcloneRemote(configuration: configuration, environment: environment)
        }
    }
}

/// Parses a location URL and makes its remote: the one-call factory for the CLI.
///
/// - Throws: `RemoteError` saying what is wrong with the location or its credentials.
public func makeRemote(
    location: String, environment: [String: String], homeDirectory: String,
    clock: any AuthCatEssentials.Clock = SystemClock(), password: WebDAVPasswordSource = .netrcOnly,
    createOnlyEnforced: Bool? = nil
) async throws -> any Remote {
    try await RemoteLocation(parsing: location).makeRemote(
        environment: environment, homeDirectory: homeDirectory, clock: clock, password: password,
        createOnlyEnforced: createOnlyEnforced)
}
