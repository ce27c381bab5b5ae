import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Signing, sending and retrying one request.
extension S3Remote {
    /// What came back: the status, the body, and the S3 error code if the body is an error document.
    struct Response {
        var status: Int
        var body: Data
        var headers: HTTPHeaders

        var errorCode: String? { S3ErrorReply(body)?.code }
    }

    /// The largest reply read into memory; sync objects are far smaller.
    static let maximumResponseBytes = 64 * 1024 * 1024

    /// Sends a signed request, retrying twice on 500/502/503/504.
    ///
    /// - Parameter key: the object key, or `nil` for a bucket request.
    /// - Throws: `RemoteError.unreachable` if no reply arrived.
    func send(
        _ method: HTTPMethod, key: String?, query: [(name: String, value: String)] = [],
        headers: [(name: String, value: String)] = [], body: Data = Data()
    ) async throws -> Response {
        var attempt = 0
        while true {
            let response = try await sendAdaptingQuerySigning(method, key: key, query: query, headers: headers, body: body)
            attempt += 1
            guard [500, 502, 503, 504].contains(response.status), attempt < 3 else { return response }
            try await Task.sleep(nanoseconds: UInt64(attempt * attempt) * 200_000_000)
        }
    }

    /// Sends once, and once more with `/` unencoded in the signed query if the server wants that (see `S3Remote`).
    private func sendAdaptingQuerySigning(
        _ method: HTTPMethod, key: String?, query: [(name: String, value: String)],
        headers: [(name: String, value: String)], body: Data
    ) async throws -> Response {
        let rawSlashes = signsQuerySlashesUnencoded
        let response = try await sendOnce(method, key: key, query: query, headers: headers, body: body, querySlashesUnencoded: rawSlashes)
        guard !rawSlashes, response.status == 403, query.contains(where: { $0.value.contains("/") }),
              response.errorCode == "SignatureDoesNotMatch" else { return response }
        let retried = try await sendOnce(method, key: key, query: query, headers: headers, body: body, querySlashesUnencoded: true)
        if retried.status != 403 { signsQuerySlashesUnencoded = true }
        return retried.status == 403 ? response : retried
    }

    private func sendOnce(
        _ method: HTTPMethod, key: String?, query: [(name: String, value: String)],
        headers extra: [(name: String, value: String)], body: Data, querySlashesUnencoded: Bool
    ) async throws -> Response {
        let request = signedRequest(
            method, key: key, query: query, headers: extra, body: body, querySlashesUnencoded: querySlashesUnencoded)
        do {
            let response = try await client.execute(request, timeout: requestTimeout)
            let bytes = try await response.body.collect(upTo: Self.maximumResponseBytes)
            return Response(status: Int(response.status.code), body: Data(bytes.readableBytesView), headers: response.headers)
        } catch let error as NIOTooManyBytesError {
            _ = error
            throw RemoteError.protocolError(location: displayLocation, status: nil, detail: "the reply is larger than 64 MiB")
        } catch {
            throw transportFailure(error)
        }
    }

    /// The request with `host`, `x-amz-date`, `x-amz-content-sha256`, any session token and `authorization`.
    func signedRequest(
        _ method: HTTPMethod, key: String?, query: [(name: String, value: String)],
        headers extra: [(name: String, value: String)], body: Data, querySlashesUnencoded: Bool = false
    ) -> HTTPClientRequest {
        let timestamp = SigV4Signer.timestamp(for: clock.now())
        let payloadHash = SigV4Signer.payloadHash(body)
        var headers: [(name: String, value: String)] = [
            ("host", configuration.requestHost), ("x-amz-date", timestamp), ("x-amz-content-sha256", payloadHash),
        ]
        if let sessionToken { headers.append(("x-amz-security-token", sessionToken)) }
        headers += extra
        let path = configuration.requestPath(key: key)
        let toSign = SigV4Signer.Request(
            method: method.rawValue, path: path, query: query, headers: headers, payloadHash: payloadHash,
            querySlashesUnencoded: querySlashesUnencoded)
        let queryString = query.isEmpty ? "" : "?" + SigV4Signer.queryString(query, keepingSlashes: querySlashesUnencoded)
        var request = HTTPClientRequest(
            url: "\(configuration.scheme)://\(configuration.requestHost)\(SigV4Signer.encode(path, keepingSlashes: true))\(queryString)")
        request.method = method
        for header in headers { request.headers.add(name: header.name, value: header.value) }
        request.headers.add(name: "authorization", value: signer.authorization(for: toSign, timestamp: timestamp))
        if method == .PUT { request.body = .bytes(ByteBuffer(bytes: body)) }
        return request
    }
}
