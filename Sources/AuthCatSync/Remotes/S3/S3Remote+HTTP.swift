import Foundation

/// Signing, sending and retrying one request.
extension S3Remote {
    /// What came back: the status, the body, and the S3 error code if the body is an error document.
    struct Response {
        var status: Int
        var body: Data
        /// Header names are lower-case.
        var headers: [String: String]
        /// The request's deadline, which reading the body must keep too.
        var deadline: ContinuousClock.Instant

        var errorReply: S3ErrorReply? { S3ErrorReply(body, deadline: deadline) }
        var errorCode: String? { errorReply?.code }
    }

    /// How much of a reply is read, and what a longer one means.
    struct ReplyBound {
        /// The longest body of a successful reply.
        var maximumBytes: Int
        /// The object a GET reads, whose reply over the bound is a refused object rather than a failed request.
        var object: String?

        /// Replies that carry no document on success (PUT, HEAD, DELETE): only an error document is read.
        static let errorDocument = ReplyBound(maximumBytes: S3ErrorReply.maximumBytes)
    }

    /// Sends a signed request, retrying twice on 500/502/503/504.
    ///
    /// - Parameters:
    ///   - key: the object key, or `nil` for a bucket request.
    ///   - bound: how much of the reply is read; a reply over it fails without being read whole.
    /// - Throws: `RemoteError.unreachable` if no reply arrived.
    func send(
        _ method: S3Request.Method, key: String?, query: [(name: String, value: String)] = [],
        headers: [(name: String, value: String)] = [], body: Data = Data(), bound: ReplyBound = .errorDocument
    ) async throws -> Response {
        var attempt = 0
        while true {
            let response = try await sendAdaptingQuerySigning(
                method, key: key, query: query, headers: headers, body: body, bound: bound)
            attempt += 1
            guard [500, 502, 503, 504].contains(response.status), attempt < 3 else { return response }
            try await Task.sleep(nanoseconds: UInt64(attempt * attempt) * 200_000_000)
        }
    }

    /// Sends once, and once more with `/` unencoded in the signed query if the server wants that (see `S3Remote`).
    private func sendAdaptingQuerySigning(
        _ method: S3Request.Method, key: String?, query: [(name: String, value: String)],
        headers: [(name: String, value: String)], body: Data, bound: ReplyBound
    ) async throws -> Response {
        let rawSlashes = signsQuerySlashesUnencoded
        let response = try await sendOnce(
            method, key: key, query: query, headers: headers, body: body, bound: bound,
            querySlashesUnencoded: rawSlashes)
        guard !rawSlashes, response.status == 403, query.contains(where: { $0.value.contains("/") }),
            response.errorCode == "SignatureDoesNotMatch"
        else { return response }
        let retried = try await sendOnce(
            method, key: key, query: query, headers: headers, body: body, bound: bound, querySlashesUnencoded: true)
        if retried.status != 403 { signsQuerySlashesUnencoded = true }
        return retried.status == 403 ? response : retried
    }

    private func sendOnce(
        _ method: S3Request.Method, key: String?, query: [(name: String, value: String)],
        headers extra: [(name: String, value: String)], body: Data, bound: ReplyBound, querySlashesUnencoded: Bool
    ) async throws -> Response {
        let request = signedRequest(
            method, key: key, query: query, headers: extra, body: body, querySlashesUnencoded: querySlashesUnencoded)
        do {
            return try await transport.send(request, maximumBytes: bound.maximumBytes)
        } catch let HTTPTransport.Failure.tooLarge(limit, successful) where successful && bound.object != nil {
            throw RemoteError.objectRefused(
                name: bound.object ?? "", reason: "the server sends more than the \(limit) bytes allowed")
        } catch {
            throw transportFailure(error)
        }
    }

    /// The request with `host`, `x-amz-date`, `x-amz-content-sha256`, any session token and `authorization`.
    func signedRequest(
        _ method: S3Request.Method, key: String?, query: [(name: String, value: String)],
        headers extra: [(name: String, value: String)], body: Data, querySlashesUnencoded: Bool = false
    ) -> S3Request {
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
        let queryString =
            query.isEmpty ? "" : "?" + SigV4Signer.queryString(query, keepingSlashes: querySlashesUnencoded)
        headers.append(("authorization", signer.authorization(for: toSign, timestamp: timestamp)))
        return S3Request(
            method: method,
            url:
                "\(configuration.scheme)://\(configuration.requestHost)\(SigV4Signer.encode(path, keepingSlashes: true))\(queryString)",
            headers: headers, body: body)
    }
}
