import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends `S3Request`s over one URLSession and reads each reply whole, within a size bound and a deadline.
///
/// URLSession is FoundationNetworking's, libcurl underneath; it ships with
/// the Swift toolchain, so the S3 remote adds no HTTP stack to the build
/// (see Package.swift). The session is ephemeral and keeps nothing between
/// requests: no cache, no cookies, no credential store. A redirect comes back
/// as the reply instead of being followed, since following it would send a
/// signed request somewhere it was not signed for; `S3Remote.failure` then
/// says what it means. Replies are asked for uncompressed; a body sent
/// compressed anyway (an object stored with a `Content-Encoding` of its own)
/// is decompressed by libcurl, and the size bound counts it decompressed.
///
/// Call `close()` when done; a transport released without it closes itself,
/// so a short-lived process leaves no session behind.
final class S3Transport: Sendable {
    /// Why a request has no reply, besides what URLSession reports as a `URLError`.
    enum Failure: Error, Equatable {
        /// `close()` was called before or during the request.
        case closed
        /// The reply's body is longer than `limit` bytes; `successful` if its status was 2xx.
        case tooLarge(limit: Int, successful: Bool)
        /// The whole request took longer than the deadline.
        case deadlineExceeded
        /// The URL would not be sent byte for byte as signed.
        case unusableURL
    }

    private let deadline: TimeInterval
    private let session: URLSession
    private let delegate = Delegate()
    private let isClosed = Mutex(false)

    /// - Parameters:
    ///   - idleTimeout: seconds allowed for connecting and between received
    ///     bytes. FoundationNetworking counts it in whole seconds, so it is
    ///     rounded up, to at least 1.
    ///   - deadline: seconds allowed for a whole request, from connecting to
    ///     the last byte; the reply's `deadline` carries what is left of it
    ///     to whoever reads the body.
    init(idleTimeout: TimeInterval, deadline: TimeInterval) {
        self.deadline = deadline
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCredentialStorage = nil
        configuration.timeoutIntervalForRequest = max(1, idleTimeout.rounded(.up))
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { close() }

    /// Cancels what is in flight and ends the session; later requests fail with `Failure.closed`.
    func close() {
        let wasClosed = isClosed.withLock { isClosed in
            defer { isClosed = true }
            return isClosed
        }
        if !wasClosed { session.invalidateAndCancel() }
    }

    /// Sends `request` and returns the reply, whatever its status.
    ///
    /// - Parameter maximumBytes: the longest body of a successful reply read
    ///   into memory; other replies are bounded by `S3ErrorReply.maximumBytes`.
    ///   A reply that announces more, or sends more, fails with `Failure.tooLarge`
    ///   without being read whole.
    /// - Throws: `Failure`, a `URLError` when no reply arrived, or `CancellationError`.
    func send(_ request: S3Request, maximumBytes: Int) async throws -> S3Remote.Response {
        guard let urlRequest = Self.urlRequest(for: request) else { throw Failure.unusableURL }
        let exchange = Exchange(
            maximumBytes: maximumBytes, maximumErrorBytes: S3ErrorReply.maximumBytes,
            expectsBody: request.method != .HEAD, expiry: .now + .milliseconds(Int(deadline * 1000)))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                exchange.begin(continuation)
                start(urlRequest, for: exchange)
            }
        } onCancel: {
            exchange.finish(.failure(CancellationError()))
        }
    }

    /// What URLSession sends for `request`; `nil` if its URL would not go out exactly as signed.
    static func urlRequest(for request: S3Request) -> URLRequest? {
        // The path and query are already percent-encoded as signed; a URL that
        // does not give back the same string would send something else.
        guard let url = URL(string: request.url), url.absoluteString == request.url else { return nil }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        // `host` too: libcurl would leave a default port out of its own, and the signature covers it.
        for header in request.headers { urlRequest.addValue(header.value, forHTTPHeaderField: header.name) }
        // libcurl offers every encoding it can decode; the bytes stored are what sync wants.
        urlRequest.setValue("identity", forHTTPHeaderField: "accept-encoding")
        if request.method == .PUT || !request.body.isEmpty { urlRequest.httpBody = request.body }
        return urlRequest
    }

    private func start(_ urlRequest: URLRequest, for exchange: Exchange) {
        // FoundationNetworking stops the process when a closed session is asked
        // for a task, so the check and the asking are one step.
        let task: URLSessionDataTask? = isClosed.withLock { $0 ? nil : session.dataTask(with: urlRequest) }
        guard let task else { return exchange.finish(.failure(Failure.closed)) }
        // Cancelled already (the caller's task): never started.
        guard exchange.attach(task, deadline: deadline) else { return task.cancel() }
        delegate.register(exchange, for: task)
        task.resume()
    }
}
