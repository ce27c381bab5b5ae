import Foundation

/// A request without a reply as a `RemoteError`, for every remote that uses the transport (S3, WebDAV).
///
/// Reasons are short and carry no header, signature or password.
extension HTTPTransport {
    /// The error for a request that got no reply.
    ///
    /// - Parameters:
    ///   - certificateAdvice: what the user can do about a server
    ///     certificate the system does not trust (each remote's own way).
    ///   - plainHTTPAdvice: what the user can do when a TLS location reaches
    ///     a port that answers in plain http (each remote's own way).
    static func failure(
        _ error: Error, location displayLocation: String, certificateAdvice: String = "", plainHTTPAdvice: String = ""
    ) -> Error {
        switch error {
        case is CancellationError:
            return error
        case Failure.transfer(35, let message)
        where plainHTTPReplies.contains(where: message.localizedCaseInsensitiveContains):
            // The TLS handshake got an http reply: the location says TLS, the port does not speak it.
            return RemoteError.protocolError(
                location: displayLocation, status: nil,
                detail: "the server does not speak TLS on this port (it answered the TLS handshake in plain http)"
                    + plainHTTPAdvice)
        case Failure.transfer(let code, let message)
        where certificateFailures.contains(code) || message.localizedCaseInsensitiveContains("certificate"):
            // Not a network outage: the server is there, and is not who it should be (or not provably so).
            return RemoteError.protocolError(
                location: displayLocation, status: nil,
                detail: "the server's certificate is not trusted (it is checked against the system's certificate "
                    + "authorities, and verification is never turned off)" + certificateAdvice)
        case let known as Failure:
            return Self.failure(known, location: displayLocation)
        default:
            return RemoteError.unreachable(location: displayLocation, reason: describe(String(describing: error)))
        }
    }

    private static func failure(_ failure: Failure, location displayLocation: String) -> RemoteError {
        switch failure {
        case .closed:
            return .protocolError(location: displayLocation, status: nil, detail: "the remote was already closed")
        case .tooLarge(let limit, _):
            return .protocolError(
                location: displayLocation, status: nil, detail: "the reply is larger than the \(limit) bytes allowed")
        case .headTooLarge:
            return .protocolError(
                location: displayLocation, status: nil,
                detail: "the reply's headers are longer than the \(maximumHeadBytes) bytes allowed")
        case .deadlineExceeded, .timedOut:
            return .unreachable(location: displayLocation, reason: "the server did not answer in time")
        case .unusableURL:
            return .invalidLocation(location: displayLocation, reason: "the endpoint is not a usable URL")
        case .transfer(let code, let message):
            return Self.failure(code: code, message: message, location: displayLocation)
        }
    }

    /// What OpenSSL (`wrong version number`, `packet length too long`) and
    /// GnuTLS (`unexpected TLS packet`) say when the first reply to a TLS
    /// handshake is plain http.
    private static let plainHTTPReplies = ["wrong version number", "packet length too long", "unexpected TLS packet"]

    /// libcurl's certificate and TLS failures (CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION,
    /// CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE).
    private static let certificateFailures: Set<Int> = [35, 60, 58, 77]

    /// libcurl's errors by number (curl.h's CURLcode); anything else keeps libcurl's own words.
    private static func failure(code: Int, message: String, location displayLocation: String) -> RemoteError {
        let reason: String
        switch code {
        case 28: reason = "the server did not answer in time"
        case 7: reason = "connection refused"
        case 5, 6: reason = "the host name could not be resolved"
        case 52, 55, 56, 18: reason = "the server closed the connection"
        case 1, 3:
            return .invalidLocation(location: displayLocation, reason: "the endpoint is not a usable URL")
        default:
            reason = message.isEmpty ? "the request failed (libcurl error \(code))" : describe(message)
        }
        return .unreachable(location: displayLocation, reason: reason)
    }

    /// A short, credential-free account of a network error.
    private static func describe(_ text: String) -> String {
        for (needle, reason) in [
            ("Connection refused", "connection refused"), ("connection reset", "connection reset"),
            ("Network is unreachable", "no network"), ("No route to host", "no route to host"),
            ("DNS", "the host name could not be resolved"), ("resolve host", "the host name could not be resolved"),
        ] where text.localizedCaseInsensitiveContains(needle) {
            return reason
        }
        return String(text.prefix(200))
    }
}
