import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request without a reply as a `RemoteError`, for every remote that uses the transport (S3, WebDAV).
///
/// Reasons are short and carry no header, signature or password.
extension S3Transport {
    /// The error for a request that got no reply.
    ///
    /// - Parameter certificateAdvice: what the user can do about a server
    ///   certificate the system does not trust (each remote's own way).
    static func failure(_ error: Error, location displayLocation: String, certificateAdvice: String = "") -> Error {
        switch error {
        case is CancellationError:
            return error
        case let known as Failure:
            return Self.failure(known, location: displayLocation)
        case let urlError as URLError
        where certificateFailures.contains(urlError.code)
            // libcurl's own words, whichever code FoundationNetworking gave them.
            || urlError.localizedDescription.localizedCaseInsensitiveContains("certificate"):
            // Not a network outage: the server is there, and is not who it should be (or not provably so).
            return RemoteError.protocolError(
                location: displayLocation, status: nil,
                detail: "the server's certificate is not trusted (it is checked against the system's certificate "
                    + "authorities, and verification is never turned off)" + certificateAdvice)
        case let urlError as URLError:
            return Self.failure(urlError, location: displayLocation)
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
        case .deadlineExceeded:
            return .unreachable(location: displayLocation, reason: "the server did not answer in time")
        case .unusableURL:
            return .invalidLocation(location: displayLocation, reason: "the endpoint is not a usable URL")
        }
    }

    private static let certificateFailures: Set<URLError.Code> = [
        .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate,
        .serverCertificateNotYetValid, .secureConnectionFailed,
    ]

    /// FoundationNetworking's codes for libcurl's errors; anything else keeps libcurl's own words.
    private static func failure(_ error: URLError, location displayLocation: String) -> RemoteError {
        let reason: String
        switch error.code {
        case .timedOut: reason = "the server did not answer in time"
        case .cannotConnectToHost: reason = "connection refused"
        case .cannotFindHost, .dnsLookupFailed: reason = "the host name could not be resolved"
        case .notConnectedToInternet: reason = "no network"
        case .networkConnectionLost, .badServerResponse: reason = "the server closed the connection"
        case .badURL, .unsupportedURL:
            return .invalidLocation(location: displayLocation, reason: "the endpoint is not a usable URL")
        default:
            let text = error.localizedDescription
            reason = text.isEmpty ? "the request failed (URLError \(error.code.rawValue))" : describe(text)
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
