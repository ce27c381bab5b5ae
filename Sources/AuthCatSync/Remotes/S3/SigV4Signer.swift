import AuthCatCore
import AuthCatEssentials
import Foundation

/// AWS Signature Version 4 (header-based, single-chunk payload).
///
/// The canonical request follows the S3 rules: the path is URI-encoded once
/// and not normalised, query parameters are encoded and sorted, header values
/// are trimmed with inner runs of spaces collapsed, and repeated headers are
/// joined with commas. Every header given in the request is signed.
/// Checked against AWS's published test suite and the S3 API reference
/// examples (see `Tests/AuthCatSyncTests/Vectors/sigv4.json`).
struct SigV4Signer: Sendable {
    /// A request to sign, as it will be sent.
    struct Request {
        var method: String
        /// The decoded path, starting with `/` (e.g. `/bucket/test$file.text`).
        var path: String
        /// Decoded query parameters in any order.
        var query: [(name: String, value: String)] = []
        /// Headers to sign, including `host` and `x-amz-date`.
        var headers: [(name: String, value: String)] = []
        /// Hex SHA-256 of the body, or `UNSIGNED-PAYLOAD`.
        var payloadHash: String
        /// Leave `/` unencoded in query values. Wrong by the specification, but
        /// what servers that decode the query before checking (moto) compute.
        var querySlashesUnencoded = false
    }

    /// The hex SHA-256 of an empty body.
    static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    let credentials: S3Credentials
    let region: String
    let service: String

    /// The value of the `Authorization` header.
    ///
    /// - Parameter timestamp: the request's `x-amz-date` (`yyyyMMdd'T'HHmmss'Z'`).
    func authorization(for request: Request, timestamp: String) -> String {
        let credential = "\(credentials.accessKeyId)/\(scope(timestamp))"
        return "AWS4-HMAC-SHA256 Credential=\(credential), SignedHeaders=\(Self.signedHeaders(request)), "
            + "Signature=\(signature(for: request, timestamp: timestamp))"
    }

    /// The hex signature of the request.
    func signature(for request: Request, timestamp: String) -> String {
        let text = stringToSign(for: request, timestamp: timestamp)
        let mac = SHA256.authenticationCode(for: Data(text.utf8), key: signingKey(date: String(timestamp.prefix(8))))
        return mac.withUnsafeBytes { Self.hex($0) }
    }

    /// The string that is signed: algorithm, timestamp, scope and hash of the canonical request.
    func stringToSign(for request: Request, timestamp: String) -> String {
        let canonicalHash = Self.hex(SHA256.hash(Data(Self.canonicalRequest(request).utf8)))
        return ["AWS4-HMAC-SHA256", timestamp, scope(timestamp), canonicalHash].joined(separator: "\n")
    }

    /// The key derived from the secret for one day, region and service.
    func signingKey(date: String) -> SecretBytes {
        // "AWS4" + secret is the first HMAC key; built in a buffer that is wiped afterwards.
        let seed = credentials.secretAccessKey.withUnsafeBytes { secret in
            var bytes = [UInt8]("AWS4".utf8) + secret
            defer { bytes.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) } }
            return SecretBytes(bytes)
        }
        var key = seed
        for part in [date, region, service, "aws4_request"] {
            key = SHA256.authenticationCode(for: Data(part.utf8), key: key)
        }
        return key
    }

    private func scope(_ timestamp: String) -> String {
        "\(timestamp.prefix(8))/\(region)/\(service)/aws4_request"
    }
}
