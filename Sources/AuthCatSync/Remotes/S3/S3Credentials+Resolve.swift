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
        let path =
            environment["AWS_SHARED_CREDENTIALS_FILE"].flatMap { $0.isEmpty ? nil : $0 }
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
            !keyId.isEmpty, !secret.isEmpty
        else {
            throw RemoteError.credentialsMissing(
                location: location,
                reason: "the [\(name)] profile in \(path) lacks aws_access_key_id or aws_secret_access_key")
        }
        return S3Credentials(
            accessKeyId: keyId, secretAccessKey: SecretBytes(utf8: secret), sessionToken: section["aws_session_token"])
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

    /// The most a credentials file may hold: far more than any real one.
    static let maximumCredentialsFileSize = 1 << 20

    /// The credentials file's text, or nil when there is none. A link is
    /// followed (dotfiles are often links), but what it reaches must be a
    /// regular file of this user's (or root's) and at most
    /// `maximumCredentialsFileSize` bytes: a FIFO must not hang a sync, a
    /// huge file must not fill memory, and another user's file must not
    /// choose the account authcat writes to. The WebDAV remote reads `~/.netrc` with it too.
    static func readCredentialsFile(_ path: String) throws -> String? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw RemoteError.io(path: path, operation: "read", reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw RemoteError.io(path: path, operation: "read", reason: "it is not a regular file")
        }
        guard info.st_uid == getuid() || info.st_uid == 0 else {
            throw RemoteError.io(
                path: path, operation: "read", reason: "it belongs to another user (uid \(info.st_uid))")
        }
        guard Int(info.st_size) <= maximumCredentialsFileSize else {
            throw RemoteError.io(
                path: path, operation: "read", reason: "it is larger than \(maximumCredentialsFileSize >> 20) MiB")
        }
        // One byte more than the file's size, so that a file that grew is seen;
        // never empty, so the buffer's base address below exists.
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else {
                throw RemoteError.io(path: path, operation: "read", reason: String(cString: strerror(errno)))
            }
            if got == 0 { break }
            count += got
        }
        defer { bytes.withUnsafeMutableBytes { _ = memset($0.baseAddress!, 0, $0.count) } }
        guard count <= Int(info.st_size), let text = String(validating: bytes[..<count], as: UTF8.self) else {
            throw RemoteError.io(
                path: path, operation: "read", reason: "the file cannot be read as UTF-8 text, or grew while read")
        }
        return text
    }
}
