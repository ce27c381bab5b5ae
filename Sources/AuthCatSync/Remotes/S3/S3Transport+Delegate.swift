import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension S3Transport {
    /// The session's delegate: hands each task's events to its exchange, and follows no redirect.
    ///
    /// FoundationNetworking gives data to the session's delegate only (never a
    /// task's own), hence one delegate that looks the exchange up by task.
    final class Delegate: NSObject, URLSessionDataDelegate, Sendable {
        private let exchanges = Mutex<[Int: Exchange]>([:])

        func register(_ exchange: Exchange, for task: URLSessionTask) {
            exchanges.withLock { $0[task.taskIdentifier] = exchange }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @Sendable @escaping (URLRequest?) -> Void
        ) {
            // The signature names the host and path; the 3xx itself is the reply, and says where the bucket is.
            completionHandler(nil)
        }

        /// A 401 with a `WWW-Authenticate` challenge: FoundationNetworking would
        /// wait for a credential without end, so the 401 is the reply (the
        /// password was already sent in the request, and is never sent twice).
        func urlSession(
            _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @Sendable @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            exchange(of: task)?.refuse(challenge.failureResponse)
            completionHandler(.cancelAuthenticationChallenge, nil)
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @Sendable @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            exchange(of: dataTask)?.receive(response)
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            exchange(of: dataTask)?.receive(data)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
            exchange?.complete(response: task.response, error: error)
        }

        private func exchange(of task: URLSessionTask) -> Exchange? {
            exchanges.withLock { $0[task.taskIdentifier] }
        }
    }
}
