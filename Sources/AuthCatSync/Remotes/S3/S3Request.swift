import Foundation

/// A signed S3 request, exactly as it is to be sent.
///
/// Built by `S3Remote.signedRequest` and sent by `HTTPTransport`; kept apart
/// from Foundation's `URLRequest` so that what was signed can be checked
/// without a network.
struct S3Request {
    /// The HTTP methods S3 and WebDAV requests use (the transport is shared).
    enum Method: String {
        case GET, HEAD, PUT, DELETE
        /// WebDAV's listing and folder creation.
        case PROPFIND, MKCOL
        /// rclone's remote control.
        case POST
    }

    var method: Method
    /// Scheme and host, then the path and query percent-encoded exactly as they were signed.
    var url: String
    /// Every header to send, lower-case names; all but `authorization` are signed.
    var headers: [(name: String, value: String)]
    /// The body; sent with PUT, and with any other method when not empty.
    var body: Data

    /// The value of the header `name` (lower-case), if it is sent.
    func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }
}
