import Foundation
import Synchronization

extension HTTPTransport {
    /// One request in flight: the reply so far, and the caller waiting for the outcome.
    ///
    /// libcurl's thread hands it the head and the body piece by piece; it
    /// keeps them within their bounds and says when the transfer must stop.
    /// The outcome is set once, by whichever comes first: the reply's end, an
    /// error, a bound, the caller's cancellation or `close()`. Each but the
    /// first stops the transfer at libcurl's next call, since nobody waits for
    /// it any more.
    final class Exchange: Sendable {
        typealias Outcome = Result<S3Remote.Response, any Error>

        /// What changes while the request runs.
        private struct Progress {
            var body = Data()
            var status = 0
            var headers: [String: String] = [:]
            var headBytes = 0
            var outcome: Outcome?
            var continuation: CheckedContinuation<S3Remote.Response, any Error>?
        }

        /// The longest body of a successful (2xx) reply.
        private let maximumBytes: Int
        /// The longest body of any other reply: an error document, or a redirect's.
        private let maximumErrorBytes: Int
        /// False for HEAD, whose `Content-Length` is the object's, not the reply's.
        private let expectsBody: Bool
        /// When the caller stops waiting; it bounds reading the reply too.
        let expiry: ContinuousClock.Instant
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

        /// Whether the outcome is set, and the transfer is to stop.
        var isDecided: Bool { progress.withLock { $0.outcome != nil } }

        /// One line of the reply's head; false if the transfer must stop (a bound, or the outcome known).
        func receive(headLine line: String, bytes: Int) -> Bool {
            let refused: Failure? = progress.withLock { progress in
                guard progress.outcome == nil else { return .closed }
                progress.headBytes += bytes
                guard progress.headBytes <= HTTPTransport.maximumHeadBytes else { return .headTooLarge }
                if line.hasPrefix("HTTP/") {
                    // A new head (after a 100 Continue, say): only the last one counts.
                    progress.status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                    progress.headers = [:]
                    return nil
                }
                guard let colon = line.firstIndex(of: ":") else { return nil }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
                progress.headers[name] = value
                let limit = limit(for: progress.status)
                if expectsBody, name == "content-length", let announced = Int(value), announced > limit {
                    return .tooLarge(limit: limit, successful: limit == maximumBytes)
                }
                return nil
            }
            if let refused, refused != .closed { finish(.failure(refused)) }
            return refused == nil
        }

        /// A piece of the body: refused once the body would grow past the bound, before it is kept.
        func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
            let refused: Failure? = progress.withLock { progress in
                guard progress.outcome == nil else { return .closed }
                let limit = limit(for: progress.status)
                guard bytes.count <= limit - progress.body.count else {
                    return .tooLarge(limit: limit, successful: limit == maximumBytes)
                }
                progress.body.append(contentsOf: bytes)
                return nil
            }
            if let refused, refused != .closed { finish(.failure(refused)) }
            return refused == nil
        }

        /// The reply, once libcurl has read it whole.
        func reply() -> S3Remote.Response {
            progress.withLock { progress in
                S3Remote.Response(
                    status: progress.status, body: progress.body, headers: progress.headers, deadline: expiry)
            }
        }

        /// The bound that applies to a reply with `status`.
        private func limit(for status: Int) -> Int {
            (200..<300).contains(status) ? maximumBytes : min(maximumBytes, maximumErrorBytes)
        }

        /// Sets the outcome if it is not set yet, and resumes the caller.
        func finish(_ result: Outcome) {
            let waiting: CheckedContinuation<S3Remote.Response, any Error>? = progress.withLock { progress in
                guard progress.outcome == nil else { return nil }
                progress.outcome = result
                // The body is no longer anyone's: what was read goes now, not when libcurl stops.
                if case .failure = result { progress.body = Data() }
                defer { progress.continuation = nil }
                return progress.continuation
            }
            waiting?.resume(with: result)
        }
    }
}
