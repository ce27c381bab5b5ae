import Foundation
import Synchronization

/// Sends the network remotes' requests (S3, WebDAV, rclone's remote control) with libcurl, and reads each reply
/// within a size bound and a deadline.
///
/// One rule for every body that arrives: it is counted as libcurl hands it
/// over, on libcurl's own thread, and the transfer is stopped at the first
/// byte past the bound, so a server that sends without end costs at most the
/// bound in memory. (URLSession, which this replaced, hands data to its
/// delegate through a queue without back-pressure: a server on loopback
/// filled gigabytes before the delegate had counted 64 MiB.)
///
/// A request over plain HTTP goes straight to its server, never through a
/// proxy (`http_proxy` and the rest are ignored for it): it may carry a
/// password in clear, which goes only where the user pointed. HTTPS follows
/// libcurl's usual proxy variables. No redirect is followed, since it would
/// carry a signature or password elsewhere; the 3xx is the reply, and each
/// remote says what it means. Nothing is kept between requests but open
/// connections: no cookies, no cache, no credentials. Replies are asked for
/// uncompressed and never decompressed: the bytes stored are the bytes read.
///
/// Call `close()` when done; a transport released without it closes itself.
final class HTTPTransport: Sendable {
    /// Why a request has no reply.
    enum Failure: Error, Equatable {
        /// `close()` was called before or during the request.
        case closed
        /// The reply's body is longer than `limit` bytes; `successful` if its status was 2xx.
        case tooLarge(limit: Int, successful: Bool)
        /// The reply's head is longer than `HTTPTransport.maximumHeadBytes`.
        case headTooLarge
        /// The whole request took longer than the deadline.
        case deadlineExceeded
        /// Nothing arrived for longer than the idle timeout.
        case timedOut
        /// The URL would not be sent byte for byte as signed.
        case unusableURL
        /// libcurl's error, by its number and words.
        case transfer(code: Int, message: String)
    }

    /// The longest reply head (status line and headers) read: far more than any server sends.
    static let maximumHeadBytes = 64 * 1024

    let idleTimeout: TimeInterval
    let deadline: TimeInterval
    /// libcurl handles between requests, by address (a pointer is not `Sendable`; each is used by one request at a
    /// time), kept so that the next request reuses their open connections; nil once closed.
    private let idleHandles = Mutex<[Int]?>([])
    /// The requests in flight, which `close()` ends.
    private let exchanges = Mutex<[Exchange]>([])

    /// - Parameters:
    ///   - idleTimeout: seconds allowed for connecting and between received bytes.
    ///   - deadline: seconds allowed for a whole request, from connecting to
    ///     the last byte; the reply's `deadline` carries what is left of it
    ///     to whoever reads the body.
    init(idleTimeout: TimeInterval, deadline: TimeInterval) {
        self.idleTimeout = idleTimeout
        self.deadline = deadline
    }

    deinit { close() }

    /// Cancels what is in flight and ends the transport; later requests fail with `Failure.closed`.
    func close() {
        let handles = idleHandles.withLock { handles in
            defer { handles = nil }
            return handles ?? []
        }
        for handle in handles { Self.release(handle) }
        let inFlight = exchanges.withLock { exchanges in
            defer { exchanges = [] }
            return exchanges
        }
        for exchange in inFlight { exchange.finish(.failure(Failure.closed)) }
    }

    /// Sends `request` and returns the reply, whatever its status.
    ///
    /// - Parameter maximumBytes: the longest body of a successful reply read
    ///   into memory; other replies are bounded by `S3ErrorReply.maximumBytes`.
    ///   A reply that announces more, or sends more, fails with `Failure.tooLarge`
    ///   as soon as it does.
    /// - Throws: `Failure`, or `CancellationError`.
    func send(_ request: S3Request, maximumBytes: Int) async throws -> S3Remote.Response {
        guard Self.isSendable(request) else { throw Failure.unusableURL }
        let exchange = Exchange(
            maximumBytes: maximumBytes, maximumErrorBytes: S3ErrorReply.maximumBytes,
            expectsBody: request.method != .HEAD, expiry: .now + .milliseconds(Int(deadline * 1000)))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                exchange.begin(continuation)
                start(request, for: exchange)
            }
        } onCancel: {
            exchange.finish(.failure(CancellationError()))
        }
    }

    /// Whether `request`'s URL goes out exactly as it was signed: a URL that Foundation does not give back as the
    /// same string has something in it (a space, a bare `%`) that a server could read otherwise.
    static func isSendable(_ request: S3Request) -> Bool {
        guard let url = URL(string: request.url), url.absoluteString == request.url else { return false }
        return url.scheme == "http" || url.scheme == "https"
    }

    /// Starts the transfer on a thread of its own, which libcurl blocks until the reply's end.
    private func start(_ request: S3Request, for exchange: Exchange) {
        let registered = exchanges.withLock { exchanges in
            // Closed already: `idleHandles` is nil from then on.
            guard idleHandles.withLock({ $0 != nil }) else { return false }
            exchanges.append(exchange)
            return true
        }
        guard registered else { return exchange.finish(.failure(Failure.closed)) }
        let idleTimeout = idleTimeout
        let deadline = deadline
        Thread { [self] in
            let handle = takeHandle()
            let outcome = Self.perform(
                request, on: handle, for: exchange, idleTimeout: idleTimeout, deadline: deadline)
            exchange.finish(outcome)
            giveBack(handle)
            exchanges.withLock { $0.removeAll { $0 === exchange } }
        }.start()
    }

    /// An idle handle, or a new one.
    private func takeHandle() -> Int {
        if let handle = idleHandles.withLock({ $0?.popLast() }) { return handle }
        return Self.newHandle()
    }

    /// Keeps `handle` for the next request, or releases it if the transport is closed.
    private func giveBack(_ handle: Int) {
        guard handle != 0 else { return }
        let kept = idleHandles.withLock { handles in
            guard handles != nil else { return false }
            handles?.append(handle)
            return true
        }
        if !kept { Self.release(handle) }
    }
}
