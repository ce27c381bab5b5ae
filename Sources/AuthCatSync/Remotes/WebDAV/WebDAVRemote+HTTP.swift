import Foundation

/// Sending one WebDAV request, and what a failed one means.
extension WebDAVRemote {
    typealias Response = S3Remote.Response

    /// The longest error page read: enough for a server's message, never a flood.
    static let maximumErrorBytes = 64 * 1024

    /// Sends a request with the password, retrying twice on 500/502/503/504.
    ///
    /// - Parameter maximumBytes: the longest successful reply read whole.
    /// - Throws: `RemoteError` if no reply arrived.
    func send(
        _ method: S3Request.Method, url: String, headers: [(name: String, value: String)] = [], body: Data = Data(),
        maximumBytes: Int = maximumErrorBytes, object: String? = nil
    ) async throws -> Response {
        var allHeaders = headers
        if let authorization { allHeaders.append(("authorization", authorization)) }
        let request = S3Request(method: method, url: url, headers: allHeaders, body: body)
        var attempt = 0
        while true {
            let response: Response
            do {
                response = try await transport.send(request, maximumBytes: maximumBytes)
            } catch let HTTPTransport.Failure.tooLarge(limit, successful) where successful && object != nil {
                throw RemoteError.objectRefused(
                    name: object ?? "", reason: "the server sends more than the \(limit) bytes allowed")
            } catch {
                throw HTTPTransport.failure(
                    error, location: displayLocation, certificateAdvice: Self.certificateAdvice,
                    plainHTTPAdvice: configuration.plainHTTPAdvice)
            }
            attempt += 1
            guard [500, 502, 503, 504].contains(response.status), attempt < 3 else { return response }
            try await Task.sleep(nanoseconds: UInt64(attempt * attempt) * 200_000_000)
        }
    }

    /// A NAS with a certificate authority of its own: authcat takes no CA
    /// file of its own (the system's authorities decide), rclone can (`--ca-cert`, or `RCLONE_CA_CERT`).
    static let certificateAdvice =
        "; for a server with a certificate authority of its own, add its CA certificate to the system's "
        + "(update-ca-certificates), or sync through rclone's webdav backend with RCLONE_CA_CERT naming the CA file"

    /// The error for a reply that is not the expected success.
    ///
    /// - Parameter writing: whether the request stored an object: a server
    ///   error then often means a full disk, which not every server answers
    ///   with 507 (lighttpd says 500 when the body it streams to disk fails).
    func failure(_ response: Response, doing operation: String, writing: Bool = false) -> RemoteError {
        switch response.status {
        case 401:
            guard authorization != nil else {
                return .credentialsMissing(
                    location: displayLocation,
                    reason: "the server asks for a user and password; name the user in the location "
                        + "(davs://USER@\(configuration.host)/…)")
            }
            return .credentialsRejected(
                location: displayLocation,
                reason: "the server does not accept the WebDAV user name and password (HTTP 401); check the user in "
                    + "the location and the password in \(WebDAVPasswordSource.fileVariable) or ~/.netrc (for Nextcloud "
                    + "or ownCloud, an app password)")
        case 403:
            return .credentialsRejected(
                location: displayLocation,
                reason:
                    "the WebDAV user may not \(operation) there (HTTP 403); check the folder's sharing and permissions "
                    + "on the server")
        case 507:
            return .protocolError(
                location: displayLocation, status: 507,
                detail: "cannot \(operation): the server has no space left for this account (Insufficient Storage); "
                    + "free some space or raise the quota, nothing was lost")
        case 500..<600 where writing:
            return .protocolError(
                location: displayLocation, status: response.status,
                detail: "cannot \(operation): the server failed to store it, as some servers (lighttpd) answer when "
                    + "their disk is full or a quota is reached; free some space on the server or retry later, "
                    + "nothing was lost")
        case 300..<400:
            let target = response.headers["location"].map { " to \(RemoteLocation.redacted($0))" } ?? ""
            return .invalidLocation(
                location: displayLocation,
                reason: "the server redirects\(target) (HTTP \(response.status)); give that location instead")
        default:
            return .protocolError(location: displayLocation, status: response.status, detail: "cannot \(operation)")
        }
    }
}
