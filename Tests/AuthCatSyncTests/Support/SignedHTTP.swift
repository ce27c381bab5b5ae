import AuthCatTestSupport
import Foundation

@testable import AuthCatSync

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Blocking, SigV4-signed HTTP requests for test setup (IAM calls, bucket creation).
///
/// Uses the library's own signer; only for loopback servers in tests.
struct SignedHTTP {
    let endpoint: String
    let credentials: S3Credentials
    let service: String
    var region = "us-east-1"

    /// Sends a request and waits for the reply.
    func send(method: String, path: String, contentType: String? = nil, body: Data) throws -> (status: Int, body: Data)
    {
        guard let url = URL(string: endpoint + path), let host = url.host else {
            throw MotoProcess.StartError("bad endpoint \(endpoint)")
        }
        let timestamp = SigV4Signer.timestamp(for: Date())
        let payloadHash = SigV4Signer.payloadHash(body)
        var headers: [(name: String, value: String)] = [
            ("host", url.port.map { "\(host):\($0)" } ?? host), ("x-amz-date", timestamp),
            ("x-amz-content-sha256", payloadHash),
        ]
        if let contentType { headers.append(("content-type", contentType)) }
        let signer = SigV4Signer(credentials: credentials, region: region, service: service)
        let toSign = SigV4Signer.Request(method: method, path: path, headers: headers, payloadHash: payloadHash)
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.httpMethod = method
        for header in headers where header.name != "host" {
            request.setValue(header.value, forHTTPHeaderField: header.name)
        }
        request.setValue(signer.authorization(for: toSign, timestamp: timestamp), forHTTPHeaderField: "Authorization")
        request.httpBody = body
        return try Self.wait(for: request)
    }

    private static func wait(for request: URLRequest) throws -> (status: Int, body: Data) {
        final class Outcome: @unchecked Sendable {
            var status = 0
            var body = Data()
            var error: Error?
        }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, error in
            outcome.status = (response as? HTTPURLResponse)?.statusCode ?? 0
            outcome.body = data ?? Data()
            outcome.error = error
            done.signal()
        }.resume()
        done.wait()
        if let error = outcome.error { throw error }
        return (outcome.status, outcome.body)
    }
}
