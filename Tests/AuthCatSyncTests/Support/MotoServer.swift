import AuthCatTestSupport
import Foundation

@testable import AuthCatSync

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real S3 server on loopback: `moto_server` (`MotoProcess`) with a user,
/// its access key and a bucket.
///
/// Only moto's first three requests go unchecked: the IAM calls that create
/// the user, give it an S3 policy and make its access key. From then on moto
/// checks every signature and every permission, as AWS does. The bucket is
/// then created with that key.
final class MotoServer {
    let credentials: S3Credentials
    let bucket: String
    private let moto: MotoProcess

    var port: Int { moto.port }
    var endpoint: String { moto.endpoint }
    var logPath: String { moto.logPath }

    /// Starts moto, creates a user with an access key, and a bucket.
    ///
    /// - Throws: `MotoProcess.StartError` saying to `pip install 'moto[server]'` if `moto_server` is not found.
    init(bucket: String = "authcat-test", logDirectory: String) throws {
        moto = try MotoProcess(unauthenticatedRequests: 3, logDirectory: logDirectory)
        self.bucket = bucket
        do {
            credentials = try IAMClient(endpoint: moto.endpoint).createUserWithS3Key(user: "authcat-test")
            try Self.createBucket(bucket, endpoint: moto.endpoint, credentials: credentials)
        } catch {
            moto.stop()
            throw error
        }
    }

    /// Stops the server.
    func stop() {
        moto.stop()
    }

    /// A location URL for this server, with the given prefix.
    func location(bucket: String? = nil, prefix: String, options: String = "") -> String {
        "s3://\(bucket ?? self.bucket)/\(prefix)?endpoint=\(endpoint)&region=us-east-1\(options)"
    }

    /// The S3 configuration for `prefix` in the bucket (or another bucket).
    func configuration(bucket: String? = nil, prefix: String, options: String = "") throws -> S3Configuration {
        guard
            case .s3(let configuration) = try RemoteLocation(
                parsing: location(bucket: bucket, prefix: prefix, options: options))
        else {
            throw MotoProcess.StartError("not an s3 location")
        }
        return configuration
    }

    private static func createBucket(_ bucket: String, endpoint: String, credentials: S3Credentials) throws {
        let client = SignedHTTP(endpoint: endpoint, credentials: credentials, service: "s3")
        let (status, body) = try client.send(method: "PUT", path: "/" + bucket, body: Data())
        guard status == 200 else {
            throw MotoProcess.StartError(
                "creating bucket \(bucket) failed with HTTP \(status): \(String(decoding: body, as: UTF8.self))")
        }
    }
}
