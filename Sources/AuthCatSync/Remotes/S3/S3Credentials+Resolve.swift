import AuthCatCore
import AuthCatEssentials
import Foundation

extension S3Credentials {
    /// Finds the credentials to use, the way the AWS tools do.
    ///
    /// 1. `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (and `AWS_SESSION_TOKEN`) in `environment`;
    /// 2. else the profile `profile` (from the location's `profile=`), else
    ///    `AWS_PROFILE`, else `default`, in `AWS_SHARED_CREDENTIALS_FILE` or
    ///    `<homeDirectory>/.aws/credentials`.
    ///
    /// Nothing is cached or written. `environment` and `homeDirectory` are
    /// passed in so that tests control them.
    ///
    /// - Parameter location: the remote's display location, for error messages.
    /// - Throws: `RemoteError.credentialsMissing` if nothing is found,
    ///   `RemoteError.io` if the credentials file cannot be read.
    public static func resolve(
        profile: String?, environment: [String: String], homeDirectory: String, location: String
    ) throws -> S3Credentials {
        if let fromEnvironment = try fromEnvironment(environment, location: location) { return fromEnvironment }
        let name = profile ?? environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        let path = environment["AWS_SHARED_CREDENTIALS_FILE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? homeDirectory + "/.aws/credentials"
        guard let text = try readCredentialsFile(path) else {
            throw RemoteError.credentialsMissing(
                location: location,
                reason: "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or add a [\(name)] profile to \(path)")
        }
        guard let section = AWSCredentialsFile.sections(of: text)[name] else {
            throw RemoteError.credentialsMissing(location: location, reason: "\(path) has no [\(name)] profile")
        }
        guard let keyId = section["aws_access_key_id"], let secret = section["aws_secret_access_key"],
              !keyId.isEmpty, !secret.isEmpty else {
            throw RemoteError.credentialsMissing(
                location: location, reason: "the [\(name)] profile in \(path) lacks aws_access_key_id or aws_secret_access_key")
        }
        return S3Credentials(accessKeyId: keyId, secretAccessKey: SecretBytes(utf8: secret), sessionToken: section["aws_session_token"])
    }

    private static func fromEnvironment(_ environment: [String: String], location: String) throws -> S3Credentials? {
        let keyId = environment["AWS_ACCESS_KEY_ID"] ?? ""
        let secret = environment["AWS_SECRET_ACCESS_KEY"] ?? ""
        if keyId.isEmpty && secret.isEmpty { return nil }
        guard !keyId.isEmpty, !secret.isEmpty else {
            throw RemoteError.credentialsMissing(
                location: location, reason: "set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither")
        }
        let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        return S3Credentials(accessKeyId: keyId, secretAccessKey: SecretBytes(utf8: secret), sessionToken: token)
    }

    private static func readCredentialsFile(_ path: String) throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw RemoteError.io(path: path, operation: "read", reason: "the file cannot be read as UTF-8 text")
        }
    }
}
