import AuthCatTestSupport
import Foundation

@testable import AuthCatSync

extension MotoServer {
    /// The server's access key as AuthCatSync takes it.
    var credentials: S3Credentials {
        S3Credentials(accessKeyId: accessKeyID, secretAccessKey: secretAccessKey)
    }

    /// The S3 configuration for `prefix` in the bucket (or another bucket).
    func configuration(bucket: String? = nil, prefix: String, options: String = "") throws -> S3Configuration {
        guard
            case .s3(let configuration) = try RemoteLocation(
                parsing: location(bucket: bucket, prefix: prefix, options: options))
        else {
            throw StartError("not an s3 location")
        }
        return configuration
    }
}
