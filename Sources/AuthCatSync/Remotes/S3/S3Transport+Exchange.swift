import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension S3Transport {
    /// One request in flight: the body so far, and the caller waiting for the outcome.
    ///
    /// The outcome is set once, by whichever comes first: the reply's end, an
    /// error, the size bound, the deadline or the caller's cancellation. Each
    /// but the first stops the transfer, since nobody waits for it any more.
    final class Exchange: @unchecked Sendable {
        typealias Outcome = Result<S3Remote.Response, any Error>

        private let maximumBytes: Int
        /// False for HEAD, whose `Content-Length` is the object's, not the reply's.
        private let expectsBody: Bool
        private let lock = NSLock()
        private var body = Data()
        private var outcome: Outcome?
        private var continuation: CheckedContinuation<S3Remote.Response, any Error>?
        private var task: URLSessionTask?
        private var expiry: DispatchWorkItem?

        init(maximumBytes: Int, expectsBody: Bool) {
            self.maximumBytes = maximumBytes
            self.expectsBody = expectsBody
        }

        /// Hands over the caller's continuation; resumed at once if the outcome is known.
        func begin(_ continuation: CheckedContinuation<S3Remote.Response, any Error>) {
            let known: Outcome? = lock.withLock {
                if outcome == nil { self.continuation = continuation }
                return outcome
            }
            if let known { continuation.resume(with: known) }
        }

        /// Records the task and its deadline; false if the outcome is already known.
        func attach(_ task: URLSessionTask, expiry: DispatchWorkItem) -> Bool {
            lock.withLock {
                guard outcome == nil else { return false }
                self.task = task
                self.expiry = expiry
                return true
            }
        }

        /// The reply's head: refused at once if it announces a body over the bound.
        func receive(_ response: URLResponse) {
            if expectsBody, response.expectedContentLength > Int64(maximumBytes) { finish(.failure(Failure.tooLarge)) }
        }

        /// A piece of the body.
        func receive(_ data: Data) {
            let fits = lock.withLock {
                guard outcome == nil, body.count + data.count <= maximumBytes else { return false }
                body.append(data)
                return true
            }
            if !fits { finish(.failure(Failure.tooLarge)) }
        }

        /// The end of the transfer, as URLSession reports it.
        func complete(response: URLResponse?, error: (any Error)?) {
            if let error {
                // Every cancellation of ours sets the outcome first, so one seen here came from `close()`.
                let closed = (error as? URLError)?.code == .cancelled
                return finish(.failure(closed ? Failure.closed : error))
            }
            guard let reply = response as? HTTPURLResponse else { return finish(.failure(URLError(.badServerResponse))) }
            let body = lock.withLock { self.body }
            finish(.success(S3Remote.Response(status: reply.statusCode, body: body, headers: Self.headers(of: reply))))
        }

        /// Sets the outcome if it is not set yet, and resumes the caller.
        func finish(_ result: Outcome) {
            let (waiting, task, expiry): (CheckedContinuation<S3Remote.Response, any Error>?, URLSessionTask?, DispatchWorkItem?) =
                lock.withLock {
                    guard outcome == nil else { return (nil, nil, nil) }
                    outcome = result
                    defer { continuation = nil }
                    return (continuation, self.task, self.expiry)
                }
            expiry?.cancel()
            if case .failure = result { task?.cancel() }
            waiting?.resume(with: result)
        }

        /// Header names lower-cased, as `S3Remote.Response` keeps them.
        private static func headers(of reply: HTTPURLResponse) -> [String: String] {
            var headers: [String: String] = [:]
            for case let (name as String, value as String) in reply.allHeaderFields {
                headers[name.lowercased()] = value
            }
            return headers
        }
    }
}
