import AuthCatTestSupport
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// moto_server on loopback with one bucket, for the remote faults on S3.
///
/// Unlike the CLI tests' server, this one never checks signatures: what is
/// tested here is what authcat makes of damaged objects, not credentials, and
/// the test itself reaches the objects through AuthCatSync's `S3Remote`,
/// which signs its requests anyway.
final class MotoS3 {
    private let moto: MotoProcess
    let bucket = "authcat-faults"

    init(logDirectory: String) throws {
        moto = try MotoProcess(unauthenticatedRequests: 1_000_000_000, logDirectory: logDirectory)
        do {
            try createBucket()
        } catch {
            moto.stop()
            throw error
        }
    }

    func stop() {
        moto.stop()
    }

    /// Credentials in the shape authcat reads them; moto accepts any.
    var environment: [String: String] {
        ["AWS_ACCESS_KEY_ID": "AKIAFAULTSUITE", "AWS_SECRET_ACCESS_KEY": "fault-suite-secret"]
    }

    func location(prefix: String) -> String {
        "s3://\(bucket)/\(prefix)?endpoint=\(moto.endpoint)&region=us-east-1"
    }

    private func createBucket() throws {
        guard let url = URL(string: "\(moto.endpoint)/\(bucket)") else { throw MotoProcess.StartError("bad endpoint") }
        var request = URLRequest(url: url)
        request.httpMethod = "PUT"
        request.httpBody = Data()
        // moto tells services apart by the credential scope, even when it checks nothing else.
        request.setValue(
            "AWS4-HMAC-SHA256 Credential=AKIAFAULTSUITE/20240101/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host, Signature=00", forHTTPHeaderField: "Authorization")
        let done = DispatchSemaphore(value: 0)
        let box = StatusBox()
        URLSession.shared.dataTask(with: request) { data, response, error in
            box.status = (response as? HTTPURLResponse)?.statusCode ?? 0
            box.detail = error.map { "\($0)" } ?? String(decoding: data ?? Data(), as: UTF8.self)
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 30) == .success else {
            throw MotoProcess.StartError("creating the bucket timed out")
        }
        guard box.status == 200 else {
            throw MotoProcess.StartError("creating the bucket: HTTP \(box.status) \(box.detail)")
        }
    }
}

private final class StatusBox: @unchecked Sendable {
    var status = 0
    var detail = ""
}
