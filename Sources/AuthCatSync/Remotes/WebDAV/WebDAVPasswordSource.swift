import AuthCatCore
import AuthCatEssentials
import Foundation

/// Where a WebDAV password comes from, in this order: the file the user
/// named (`AUTHCAT_WEBDAV_PASSWORD_FILE`, read by the caller through its
/// path rules), `~/.netrc`, then a person at a terminal.
///
/// The password never comes from the location URL, argv or the environment
/// itself, and is never put in an error or a log.
public struct WebDAVPasswordSource: Sendable {
    /// The variable that names the password file.
    public static let fileVariable = "AUTHCAT_WEBDAV_PASSWORD_FILE"

    /// The first line of the file named by `AUTHCAT_WEBDAV_PASSWORD_FILE`, or `nil` if it is not set.
    public var named: @Sendable () throws -> SecretBytes?
    /// Asks for the password with the given prompt; `nil` when nobody can be asked (no terminal).
    public var typed: @Sendable (_ prompt: String) throws -> SecretBytes?
    /// Told, as `~/.netrc` is read, what is wrong with its mode when others
    /// can read it (`SecretFileMode.warning`), for the caller to show.
    public var exposed: @Sendable (_ warning: String) -> Void

    public init(
        named: @escaping @Sendable () throws -> SecretBytes?,
        typed: @escaping @Sendable (_ prompt: String) throws -> SecretBytes?,
        exposed: @escaping @Sendable (_ warning: String) -> Void = { _ in }
    ) {
        self.named = named
        self.typed = typed
        self.exposed = exposed
    }

    /// No file and nobody to ask: only `~/.netrc` (tests, background work).
    public static let netrcOnly = WebDAVPasswordSource(named: { nil }, typed: { _ in nil })

    /// The user and password for `configuration`, or `nil` when the location names no user and netrc has none.
    ///
    /// - Throws: `RemoteError.credentialsMissing` when a user is named but no
    ///   password is found; `RemoteError.io` when `~/.netrc` cannot be read.
    func credentials(
        for configuration: WebDAVConfiguration, homeDirectory: String
    ) throws -> WebDAVCredentials? {
        let netrc = { try netrcEntry(for: configuration, homeDirectory: homeDirectory) }
        if let password = try named() {
            // A location without a user takes the login of the host's netrc
            // entry, as curl does; the file's password goes with it.
            guard let user = try configuration.user ?? netrc()?.login else {
                throw RemoteError.credentialsMissing(
                    location: configuration.displayLocation,
                    reason: "\(Self.fileVariable) gives a password but neither the location nor ~/.netrc names "
                        + "the user; write it as davs://USER@\(configuration.host)…, or add "
                        + "'machine \(configuration.host) login USER' to ~/.netrc")
            }
            return WebDAVCredentials(user: user, password: password)
        }
        if let entry = try netrc(), let user = configuration.user ?? entry.login, let password = entry.password {
            return WebDAVCredentials(user: user, password: SecretBytes(utf8: password))
        }
        guard let user = configuration.user else { return nil }
        if let password = try typed("WebDAV password for \(user) at \(configuration.host): ") {
            return WebDAVCredentials(user: user, password: password)
        }
        throw RemoteError.credentialsMissing(
            location: configuration.displayLocation,
            reason: "no password for \(user); name a file holding it in \(Self.fileVariable), add "
                + "'machine \(configuration.host) login \(user) password …' to ~/.netrc, or run on a terminal to type it"
        )
    }

    /// The entry of `~/.netrc` for the location's host (and user), said to
    /// `exposed` first when others can read the file.
    private func netrcEntry(for configuration: WebDAVConfiguration, homeDirectory: String) throws -> NetrcFile.Entry? {
        let path = homeDirectory + "/.netrc"
        guard let text = try S3Credentials.readCredentialsFile(path) else { return nil }
        if let exposure = SecretFileMode.exposure(atPath: path) { exposed(SecretFileMode.warning(path, exposure)) }
        return NetrcFile.entry(in: text, host: configuration.host, login: configuration.user)
    }
}

/// A WebDAV user and password, sent with HTTP basic authentication.
public struct WebDAVCredentials: Sendable {
    public var user: String
    public var password: SecretBytes

    public init(user: String, password: SecretBytes) {
        self.user = user
        self.password = password
    }

    /// The `authorization` header's value.
    var basicAuthorization: String {
        var bytes = Array(user.utf8) + [UInt8(ascii: ":")]
        password.withUnsafeBytes { bytes += $0 }
        defer { for index in bytes.indices { bytes[index] = 0 } }
        return "Basic " + Data(bytes).base64EncodedString()
    }
}
