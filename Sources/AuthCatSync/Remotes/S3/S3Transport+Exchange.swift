import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension S3Transport {
    /// One request in flight: the body so far, and the caller waiting for the outcome.
    ///
    /// The outcome is set once, by whichever comes first: the reply's end, an
    /// error, the size bound, the deadline or the caller's cancellation. Each
    /// but the first stops the transfer, since nobody waits for it any more.
    final class Exchange: Sendable {
        typealias Outcome = Result<S3Remote.Response, any Error>

        /// What changes while the request runs.
        private struct Progress {
            var body = Data()
            var outcome: Outcome?
            var continuation: CheckedContinuation<S3Remote.Response, any Error>?
            var task: URLSessionTask?
            /// The bound that applies once the status is known.
            var limit: Int?
            /// Made, started and cancelled under the lock only: a work item is not Sendable.
            var expiry: DispatchWorkItem?
        }

        /// The longest body of a successful (2xx) reply.
        private let maximumBytes: Int
        /// The longest body of any other reply: an error document, or a redirect's.
        private let maximumErrorBytes: Int
        /// False for HEAD, whose `Content-Length` is the object's, not the reply's.
        private let expectsBody: Bool
        /// When the caller stops waiting; it bounds reading the reply too.
        private let expiry: ContinuousClock.Instant
        private let progress = Mutex(Progress())

        init(maximumBytes: Int, maximumErrorBytes: Int, expectsBody: Bool, expiry: ContinuousClock.Instant) {
            self.maximumBytes = maximumBytes
            self.maximumErrorBytes = maximumErrorBytes
            self.expectsBody = expectsBody
            self.expiry = expiry
        }

        /// Hands over the caller's continuation; resumed at once if the outcome is known.
        func begin(_ continuation: CheckedContinuation<S3Remote.Response, any Error>) {
            let known: Outcome? = progress.withLock { progress in
                if progress.outcome == nil { progress.continuation = continuation }
                return progress.outcome
            }
            if let known { continuation.resume(with: known) }
        }

        /// Records the task and starts its deadline; false if the outcome is already known.
        func attach(_ task: URLSessionTask, deadline: TimeInterval) -> Bool {
            progress.withLock { progress in
                guard progress.outcome == nil else { return false }
                progress.task = task
                let expiry = DispatchWorkItem { [weak self] in self?.finish(.failure(Failure.deadlineExceeded)) }
                progress.expiry = expiry
                DispatchQueue.global().asyncAfter(deadline: .now() + deadline, execute: expiry)
                return true
            }
        }

        /// The reply's head: refused at once if it announces a body over the bound.
        func receive(_ response: URLResponse) {
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            let limit = (200..<300).contains(status) ? maximumBytes : min(maximumBytes, maximumErrorBytes)
            progress.withLock { $0.limit = limit }
            if expectsBody, response.expectedContentLength > Int64(limit) {
                finish(.failure(Failure.tooLarge(limit: limit, successful: limit == maximumBytes)))
            }
        }

        /// A piece of the body: refused once the body grows past the bound, before it is kept.
        func receive(_ data: Data) {
            let refused: Int? = progress.withLock { progress in
                let limit = progress.limit ?? maximumBytes
                guard progress.outcome == nil, data.count <= limit - progress.body.count else { return limit }
                progress.body.append(data)
                return nil
            }
            if let limit = refused {
                finish(.failure(Failure.tooLarge(limit: limit, successful: limit == maximumBytes)))
            }
        }

        /// The end of the transfer, as URLSession reports it.
        func complete(response: URLResponse?, error: (any Error)?) {
            if let error {
                // Every cancellation of ours sets the outcome first, so one seen here came from `close()`.
                let closed = (error as? URLError)?.code == .cancelled
                return finish(.failure(closed ? Failure.closed : error))
            }
            guard let reply = response as? HTTPURLResponse else {
                return finish(.failure(URLError(.badServerResponse)))
            }
            let body = progress.withLock { $0.body }
            finish(
                .success(
                    S3Remote.Response(
                        status: reply.statusCode, body: body, headers: Self.headers(of: reply), deadline: expiry)))
        }

        /// An authentication challenge turned down: its response (a 401) is the reply, without its body.
        func refuse(_ response: URLResponse?) {
            guard let reply = response as? HTTPURLResponse else {
                return finish(.failure(URLError(.userAuthenticationRequired)))
            }
            finish(
                .success(
                    S3Remote.Response(
                        status: reply.statusCode, body: Data(), headers: Self.headers(of: reply), deadline: expiry)))
        }

        /// Sets the outcome if it is not set yet, and resumes the caller.
        func finish(_ result: Outcome) {
            let (waiting, task): (CheckedContinuation<S3Remote.Response, any Error>?, URLSessionTask?) =
                progress.withLock { progress in
                    guard progress.outcome == nil else { return (nil, nil) }
                    progress.outcome = result
                    // Cancelling a work item only marks it, so it cannot wait for the lock.
                    progress.expiry?.cancel()
                    defer { progress.continuation = nil }
                    return (progress.continuation, progress.task)
                }
            if case .failure = result { task?.cancel() }
            waiting?.resume(with: result)
        }

        /// Header names lower-cased, as `S3Remote.Response` keeps them.
        private static func headers(of reply: HTTPURLResponse) -> [String: String] {
            var headers: [String: String] = [:]
            for case (let name as String, let value as String) in reply.allHeaderFields {
                headers[name.lowercased()] = value
            }
            return headers
        }
    }
}
