import Foundation

/// Turning failed requests into `RemoteError`s the sync monitor can act on.
///
/// Messages carry the status and S3 error code, never a header, signature or key.
extension S3Remote {
    /// The error for a reply that is not the expected success.
    func failure(_ response: Response, doing operation: String) -> RemoteError {
        let reply = response.errorReply
        switch (response.status, reply?.code) {
        case (403, let code):
            return .credentialsRejected(
                location: displayLocation,
                reason: Self.explainDenial(code, operation: operation)
                    + "; check the access key, secret and permissions")
        case (404, "NoSuchBucket"):
            return .containerMissing(location: displayLocation)
        case (404, nil) where operation == "list objects":
            return .containerMissing(location: displayLocation)
        case (301, _), (307, _), (400, "AuthorizationHeaderMalformed"), (400, "IllegalLocationConstraintException"):
            let region = reply?.bucketRegion ?? response.headers["x-amz-bucket-region"]
            let hint = region.map { "; add region=\($0) to the location" } ?? "; check region= in the location"
            return .invalidLocation(location: displayLocation, reason: "the bucket is in another region\(hint)")
        case (400, "InvalidBucketName"):
            return .invalidLocation(location: displayLocation, reason: "the server rejects the bucket name")
        case (let status, let code):
            return .protocolError(
                location: displayLocation, status: status,
                detail: "cannot \(operation)" + (code.map { ": \($0)" } ?? ""))
        }
    }

    private static func explainDenial(_ code: String?, operation: String) -> String {
        switch code {
        case "InvalidAccessKeyId": "the access key id is not known to the server (InvalidAccessKeyId)"
        case "SignatureDoesNotMatch":
            "the secret access key does not belong to the access key id (SignatureDoesNotMatch)"
        case "AccessDenied": "the key is not allowed to \(operation) here (AccessDenied)"
        case "RequestTimeTooSkewed":
            "this computer's clock is too far off the server's; set the clock (RequestTimeTooSkewed)"
        case "ExpiredToken", "InvalidToken", "TokenRefreshRequired":
            "the session token is expired or invalid (\(code ?? ""))"
        case let code?: "access denied (\(code))"
        case nil: "access denied (HTTP 403)"
        }
    }

    /// The error for a request that got no reply.
    func transportFailure(_ error: Error) -> Error {
        HTTPTransport.failure(error, location: displayLocation)
    }
}
