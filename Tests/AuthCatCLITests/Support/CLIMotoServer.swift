import AuthCatTestSupport
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real S3 server on loopback for the command-line tests: `moto_server`
/// (`MotoProcess`) with one IAM user, its access key, and a bucket.
///
/// moto checks nothing for its first four requests: they create the user,
/// its policy, its key and the bucket, unsigned; the Authorization header
/// they carry only tells moto which service is meant. From then on every
/// signature and permission is checked, as on AWS. (The sync tests'
/// `MotoServer` creates the bucket with the key, through AuthCatSync's
/// signer, which this target does not link.)
final class CLIMotoServer {
    typealias StartError = MotoProcess.StartError

    let bucket: String
    let accessKeyID: String
    let secretAccessKey: String
    private let moto: MotoProcess

    var endpoint: String { moto.endpoint }
    /// The credentials as authcat reads them.
    var environment: [String: String] { ["AWS_ACCESS_KEY_ID": accessKeyID, "AWS_SECRET_ACCESS_KEY": secretAccessKey] }

    init(bucket: String = "authcat-cli", logDirectory: URL) throws {
        moto = try MotoProcess(unauthenticatedRequests: 4, logDirectory: logDirectory.path)
        self.bucket = bucket
        do {
            (accessKeyID, secretAccessKey) = try Self.bootstrap(endpoint: moto.endpoint, bucket: bucket)
        } catch {
            moto.stop()
            throw error
        }
    }

    /// Stops the server.
    func stop() {
        moto.stop()
    }

    /// A location URL for `prefix` in the bucket.
    func location(prefix: String) -> String {
        "s3://\(bucket)/\(prefix)?endpoint=\(endpoint)&region=us-east-1"
    }

    /// Creates the user, its S3 policy, its access key and the bucket; returns the key.
    private static func bootstrap(endpoint: String, bucket: String) throws -> (String, String) {
        let policy = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"*"}]}"#
        _ = try iam(endpoint, ["Action": "CreateUser", "UserName": "authcat-cli"])
        _ = try iam(
            endpoint,
            ["Action": "PutUserPolicy", "UserName": "authcat-cli", "PolicyName": "s3", "PolicyDocument": policy])
        let reply = try iam(endpoint, ["Action": "CreateAccessKey", "UserName": "authcat-cli"])
        guard let keyID = element("AccessKeyId", in: reply), let secret = element("SecretAccessKey", in: reply) else {
            throw StartError("CreateAccessKey gave no key: \(reply)")
        }
        let (status, body) = try send("PUT", endpoint + "/" + bucket, service: "s3", body: Data())
        guard status == 200 else { throw StartError("creating the bucket failed with HTTP \(status): \(body)") }
        return (keyID, secret)
    }

    private static func iam(_ endpoint: String, _ parameters: [String: String]) throws -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let form = parameters.merging(["Version": "2010-05-08"]) { $1 }
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
            .sorted().joined(separator: "&")
        let (status, body) = try send("POST", endpoint + "/", service: "iam", body: Data(form.utf8))
        guard status == 200 else {
            throw StartError("IAM \(parameters["Action"] ?? "") failed with HTTP \(status): \(body)")
        }
        return body
    }

    private static func send(_ method: String, _ url: String, service: String, body: Data) throws -> (Int, String) {
        guard let target = URL(string: url) else { throw StartError("bad URL \(url)") }
        var request = URLRequest(url: target)
        request.httpMethod = method
        request.httpBody = body
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue(
            "AWS4-HMAC-SHA256 Credential=AKIAAUTHCATBOOTSTRAP/20240101/us-east-1/\(service)/aws4_request, "
                + "SignedHeaders=host, Signature=00", forHTTPHeaderField: "Authorization")
        let done = DispatchSemaphore(value: 0)
        let box = ReplyBox()
        URLSession.shared.dataTask(with: request) { data, response, error in
            box.reply = (
                (response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data ?? Data(), as: UTF8.self), error
            )
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 30) == .success else { throw StartError("\(method) \(url) timed out") }
        if let error = box.reply.2 { throw StartError("\(method) \(url) failed: \(error)") }
        return (box.reply.0, box.reply.1)
    }

    private static func element(_ name: String, in xml: String) -> String? {
        guard let start = xml.range(of: "<\(name)>"),
            let end = xml.range(of: "</\(name)>", range: start.upperBound..<xml.endIndex)
        else {
            return nil
        }
        return String(xml[start.upperBound..<end.lowerBound])
    }
}

private final class ReplyBox: @unchecked Sendable {
    var reply: (Int, String, Error?) = (0, "", nil)
}
