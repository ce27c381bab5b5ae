import AuthCatCore
import AuthCatEssentials
import Foundation
import Synchronization

/// A remote in an S3-compatible bucket: AWS S3, MinIO, Ceph RGW, R2, B2, moto.
///
/// Objects live under `<prefix>/<name>` in the bucket. Requests are signed
/// with AWS Signature Version 4 over a signed payload. `create` uses
/// `If-None-Match: *`, so two racing writers cannot both win, unless the
/// location says `conditional_writes=false` or the server answers 501 to it;
/// then it checks with HEAD first, which only narrows the race.
///
/// Some servers (moto's server mode) decode `%2F` in the query before
/// checking the signature. When a request with `/` in a query value is
/// refused with `SignatureDoesNotMatch`, it is signed once more with `/` left
/// as is; if that is accepted, the remote keeps signing that way.
///
/// The remote owns one `HTTPTransport` (libcurl) for all its requests.
/// Call `close()` when done; a remote released without it closes the session.
/// Credentials are held in memory only, never logged and never put in errors.
public final class S3Remote: Remote, Sendable {
    public let configuration: S3Configuration
    let signer: SigV4Signer
    let sessionToken: String?
    let transport: HTTPTransport
    let clock: any AuthCatEssentials.Clock
    /// `max-keys` for listing; `nil` leaves the server's default (1,000 on AWS).
    let listPageSize: Int?

    /// What the server has shown about itself so far.
    private let learned = Mutex(ServerQuirks())

    private struct ServerQuirks {
        /// Set once the server has shown that it does not implement `If-None-Match` on PUT.
        var conditionalWritesUnsupported = false
        /// Set once the server has shown that it checks signatures over a query with `/` decoded.
        var decodesQuerySlashes = false
    }

    /// A remote for `configuration`, signing with `credentials`.
    ///
    /// - Parameters:
    ///   - clock: the time used for signatures (injected for tests).
    ///   - timeout: seconds allowed for connecting and between bytes (whole
    ///     seconds, rounded up); a whole request may take three times as long.
    ///   - listPageSize: `max-keys` per list request, to force pagination in tests.
    public init(
        configuration: S3Configuration, credentials: S3Credentials, clock: any AuthCatEssentials.Clock = SystemClock(),
        timeout: TimeInterval = 5, listPageSize: Int? = nil
    ) {
        self.configuration = configuration
        signer = SigV4Signer(credentials: credentials, region: configuration.region, service: "s3")
        sessionToken = credentials.sessionToken
        self.clock = clock
        let step = max(timeout, 0.1)
        transport = HTTPTransport(idleTimeout: step, deadline: step * 3)
        self.listPageSize = listPageSize
    }

    public var displayLocation: String { configuration.displayLocation }

    public func close() async throws {
        transport.close()
    }

    /// Checks that the bucket exists and the credentials are accepted; never creates a bucket.
    public func prepare() async throws {
        _ = try await listPage(prefix: configuration.key(for: ""), token: nil, pageSize: 1)
    }

    /// Create-only writes are enforced unless the location or the server turned `If-None-Match` off.
    public var capabilities: RemoteCapabilities { RemoteCapabilities(createOnlyEnforced: usesConditionalWrites) }

    var usesConditionalWrites: Bool {
        configuration.conditionalWrites && !learned.withLock { $0.conditionalWritesUnsupported }
    }

    func markConditionalWritesUnsupported() {
        learned.withLock { $0.conditionalWritesUnsupported = true }
    }

    var signsQuerySlashesUnencoded: Bool {
        get { learned.withLock { $0.decodesQuerySlashes } }
        set { learned.withLock { $0.decodesQuerySlashes = newValue } }
    }
}
