import AuthCatEssentials
import Foundation
import Synchronization

/// A remote in a folder of a WebDAV server: Nextcloud, ownCloud, a NAS, Apache's mod_dav, lighttpd.
///
/// Objects are files under the configured folder, in sub-folders as their
/// names say (`authcat-<vault>/<device>/b-…`). `prepare` creates the folder
/// with `MKCOL`; writes create missing sub-folders as they go; listing walks
/// the folders with `PROPFIND` `Depth: 1` (servers often refuse `infinity`);
/// deleting an object removes the sub-folders it leaves empty.
///
/// `create` puts with `If-None-Match: *`. Some servers ignore that header
/// (nginx's dav module, `rclone serve webdav`), so `prepare` probes it: a
/// second create-only put of one probe file must be refused. Where it is
/// not, `create` looks with `HEAD` first, which only narrows the race, and
/// `capabilities.createOnlyEnforced` says so for `sync status`.
///
/// Requests go through the transport the S3 remote uses (`HTTPTransport`:
/// libcurl, one deadline per request, replies bounded as they arrive, no
/// redirect followed: a redirect would carry the password elsewhere, and
/// no proxy for `dav://`: the password goes in clear only straight to the server). The password
/// is held in memory only, in the `authorization` header, never in a URL,
/// an error or a log.
public final class WebDAVRemote: Remote, Sendable {
    public let configuration: WebDAVConfiguration
    /// The `authorization` header, or nil for a server without authentication.
    let authorization: String?
    let transport: HTTPTransport
    private let learned: Mutex<Bool?>
    /// Folders known to exist, so that a write does not ask again.
    let knownFolders = Mutex<Set<String>>([])

    /// - Parameters:
    ///   - credentials: the user and password, or nil for none.
    ///   - createOnlyEnforced: what an earlier probe found (recorded at
    ///     `enable`); nil probes at the first `create`.
    ///   - timeout: seconds allowed for connecting and between bytes; a whole request may take three times as long.
    public init(
        configuration: WebDAVConfiguration, credentials: WebDAVCredentials?, createOnlyEnforced: Bool? = nil,
        timeout: TimeInterval = 10
    ) {
        self.configuration = configuration
        authorization = credentials?.basicAuthorization
        learned = Mutex(createOnlyEnforced)
        let step = max(timeout, 0.1)
        transport = HTTPTransport(idleTimeout: step, deadline: step * 3)
    }

    public var displayLocation: String { configuration.displayLocation }

    /// Whether the server refuses a create-only put of an existing file is known once probed.
    public var capabilities: RemoteCapabilities { RemoteCapabilities(createOnlyEnforced: learned.withLock { $0 }) }

    public func close() async throws {
        transport.close()
    }

    /// Creates the folder (and any missing parent), checks the password, and probes create-only puts.
    public func prepare() async throws {
        try await makeFolder("")
        _ = try await list(prefix: "")
        _ = try await probeCreateOnly()
    }

    /// Whether `If-None-Match: *` is honoured: a probe file is created twice,
    /// and the second put must be refused. The probe file is removed again.
    @discardableResult
    public func probeCreateOnly() async throws -> Bool {
        // A dot name: never an object name, so no listing ever reports it.
        let probe = ".authcat-probe-" + UUID().uuidString.lowercased()
        let url = configuration.url(for: probe)
        let first = try await send(.PUT, url: url, headers: [("if-none-match", "*")], body: Data("probe".utf8))
        guard (200..<300).contains(first.status) else { throw failure(first, doing: "write a probe file") }
        let second = try await send(.PUT, url: url, headers: [("if-none-match", "*")], body: Data("again".utf8))
        let removed = try await send(.DELETE, url: url)
        guard (200..<300).contains(removed.status) || removed.status == 404 else {
            throw failure(removed, doing: "remove the probe file")
        }
        let enforced: Bool
        switch second.status {
        case 412: enforced = true
        case 200..<300: enforced = false
        default: throw failure(second, doing: "write a probe file")
        }
        learned.withLock { $0 = enforced }
        return enforced
    }

    /// `createOnlyEnforced`, probed now if nobody said.
    func createOnlyIsEnforced() async throws -> Bool {
        if let known = capabilities.createOnlyEnforced { return known }
        return try await probeCreateOnly()
    }
}
