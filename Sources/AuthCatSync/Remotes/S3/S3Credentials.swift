import AuthCatCore
import AuthCatEssentials
import Foundation

/// An access key for S3-compatible storage.
///
/// The secret is held in `SecretBytes` (wiped when released) and never
/// appears in `description`, `debugDescription` or a dump.
public struct S3Credentials: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The public half of the key, e.g. `AKIAIOSFODNN7EXAMPLE`.
    public let accessKeyId: String
    /// The secret half of the key.
    public let secretAccessKey: SecretBytes
    /// A temporary session token (STS), sent as `x-amz-security-token`.
    public let sessionToken: String?

    public init(accessKeyId: String, secretAccessKey: SecretBytes, sessionToken: String? = nil) {
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// Convenience for tests and callers that already hold the secret in a string.
    public init(accessKeyId: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.init(
            accessKeyId: accessKeyId, secretAccessKey: SecretBytes(utf8: secretAccessKey), sessionToken: sessionToken)
    }

    public var description: String { "S3Credentials(accessKeyId: \(accessKeyId), secret: <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["accessKeyId": accessKeyId]) }
}
