import Foundation

/// Where the sync remote lives, parsed from the URL the user gave.
///
/// - `file:///absolute/path` (or a bare absolute path): a `FolderRemote`.
/// - `s3://bucket[/prefix][?endpoint=URL&region=R&path_style=BOOL&profile=NAME&conditional_writes=BOOL]`:
///   an `S3Remote`. Without `endpoint` it is AWS (`https://s3.<region>.amazonaws.com`,
///   virtual-hosted addressing); with one, path-style addressing is the default.
/// - `davs://[user@]host[:port]/path` (or `dav://` for plain HTTP, on loopback
///   or with `?allow_http=true`): a `WebDAVRemote`.
/// - `rclone:remote:path`: an `RcloneRemote` on a remote of rclone's configuration.
///
/// Credentials never belong in the URL; one that carries them is rejected
/// without repeating them.
public enum RemoteLocation: Sendable, Equatable {
    case folder(path: String)
    case s3(S3Configuration)
    case webDAV(WebDAVConfiguration)
    case rclone(RcloneConfiguration)

    /// Parses a location URL.
    ///
    /// - Throws: `RemoteError.invalidLocation` saying what is wrong.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("/") {
            self = .folder(path: try Self.folderPath(trimmed, shown: trimmed))
            return
        }
        // `rclone:remote:path` is rclone's syntax, not a URL.
        if trimmed.lowercased().hasPrefix("rclone:") {
            self = .rclone(try RcloneConfiguration.parse(trimmed.dropFirst("rclone:".count)))
            return
        }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased() else {
            throw RemoteError.invalidLocation(
                location: Self.redacted(trimmed, keepingUsers: true),
                reason:
                    "it is not a URL; use file:///path, s3://bucket/prefix, davs://user@host/path or rclone:remote:path"
            )
        }
        let shown = Self.redacted(trimmed, keepingUsers: true)
        // The scheme first: advice about credentials is each remote's own.
        guard ["file", "s3", "dav", "davs"].contains(scheme) else {
            throw RemoteError.invalidLocation(location: shown, reason: Self.schemeAdvice(scheme, shown: shown))
        }
        if scheme == "dav" || scheme == "davs" {
            self = .webDAV(try WebDAVConfiguration.parse(components, shown: shown))
            return
        }
        let beforeQuery = trimmed.prefix { $0 != "?" && $0 != "#" }
        // A secret may contain '/', which moves it out of the user-info part; any '@' in an s3 URL means credentials.
        if components.user != nil || components.password != nil || (scheme == "s3" && beforeQuery.contains("@")) {
            throw RemoteError.invalidLocation(location: shown, reason: Self.credentialsAdvice(scheme: scheme))
        }
        if scheme == "file" {
            self = .folder(path: try Self.parseFile(components, shown: shown))
        } else {
            self = .s3(try S3LocationParser(components: components, shown: shown).configuration())
        }
    }

    private static func credentialsAdvice(scheme: String) -> String {
        scheme == "s3"
            ? "credentials do not belong in the URL; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY or use a profile in ~/.aws/credentials"
            : "a folder takes no user name or password; name it as file:///path"
    }

    /// Whether the remote is reached unencrypted over a network (see `S3Configuration.isCleartextOverNetwork`).
    public var isCleartextOverNetwork: Bool {
        switch self {
        case .folder: false
        case .s3(let configuration): configuration.isCleartextOverNetwork
        // Refused at parsing unless `allow_http=true` said so.
        case .webDAV(let configuration): configuration.isCleartextOverNetwork
        case .rclone: false
        }
    }

    /// The location as a URL without credentials.
    public var displayLocation: String {
        switch self {
        case .folder(let path): URL(fileURLWithPath: path).absoluteString
        case .s3(let configuration): configuration.displayLocation
        case .webDAV(let configuration): configuration.displayLocation
        case .rclone(let configuration): configuration.displayLocation
        }
    }

    /// The kind of remote, as `sync status` names it: `folder`, `s3`, `webdav` or `rclone`.
    public var kind: String {
        switch self {
        case .folder: "folder"
        case .s3: "s3"
        case .webDAV: "webdav"
        case .rclone: "rclone"
        }
    }

    private static func parseFile(_ components: URLComponents, shown: String) throws -> String {
        if let host = components.host, !host.isEmpty, host != "localhost" {
            throw RemoteError.invalidLocation(
                location: shown, reason: "file URLs name a local folder; remove the host '\(host)'")
        }
        if components.query != nil || components.fragment != nil {
            throw RemoteError.invalidLocation(location: shown, reason: "file URLs take no query or fragment")
        }
        return try folderPath(components.path, shown: shown)
    }

    private static func folderPath(_ path: String, shown: String) throws -> String {
        guard path.hasPrefix("/") else {
            throw RemoteError.invalidLocation(
                location: shown, reason: "the folder path must be absolute, as in file:///home/me/Sync/authcat")
        }
        if path.split(separator: "/").contains("..") {
            throw RemoteError.invalidLocation(location: shown, reason: "the folder path must not contain '..'")
        }
        return path
    }

    /// Why `scheme` is refused, with the URL it most likely meant: an
    /// http(s) or webdav(s) URL is a WebDAV server, written `davs://` (TLS)
    /// or `dav://`, with the user, host, port and path kept as given.
    private static func schemeAdvice(_ scheme: String, shown: String) -> String {
        let webDAV = ["https": "davs", "webdavs": "davs", "http": "dav", "webdav": "dav"]
        guard let meant = webDAV[scheme], let rest = shown.range(of: "://").map({ shown[$0.upperBound...] }) else {
            return "unsupported scheme '\(scheme)'; use file://, s3://, davs://, dav:// or rclone:"
        }
        let tls =
            meant == "davs" ? "WebDAV over TLS is davs://" : "WebDAV over plain http is dav:// (to this machine only)"
        return "unsupported scheme '\(scheme)': \(tls), as in \(meant)://\(rest); an S3 endpoint goes in "
            + "s3://bucket/prefix?endpoint=\(scheme == "http" ? "http" : "https")://…"
    }

    /// The text with every credential in a URL's user-info (also inside
    /// `endpoint=`) removed, safe to show.
    ///
    /// With `keepingUsers`, for a location the user typed, a user name
    /// without a password stays: it is the WebDAV login (davs://alice@host/…,
    /// as the README writes it), which the location shows everywhere anyway
    /// (`sync status`), and its password comes from elsewhere. A user-info
    /// with a password, and any user-info in an `s3://` location (which
    /// holds only an access key there), is "<credentials removed>". Without it, for text
    /// from elsewhere (a server's redirect, rclone's messages), every
    /// user-info goes: services take tokens as user names (https://TOKEN@host).
    ///
    /// Outside `file:` URLs the user-info is taken to run to the last `@`
    /// before any `?`, `#` or `&`, because secrets may contain `/`.
    static func redacted(_ text: String, keepingUsers: Bool = false) -> String {
        // An s3:// location names no user anywhere, its endpoint= neither.
        let keepsUsers = keepingUsers && !text.lowercased().hasPrefix("s3:")
        var result = ""
        var rest = Substring(text)
        while let schemeEnd = rest.range(of: "://") {
            let scheme = String(
                rest[..<schemeEnd.lowerBound].reversed().prefix { $0.isLetter || $0.isNumber || "+.-".contains($0) }
                    .reversed()
            ).lowercased()
            result += rest[..<schemeEnd.upperBound]
            rest = rest[schemeEnd.upperBound...]
            let terminators = scheme == "file" ? "/?#&" : "?#&"
            let authorityEnd = rest.firstIndex(where: { terminators.contains($0) }) ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@") {
                let isUser = keepsUsers && !rest[..<at].contains(":")
                result += isUser ? rest[...at] : "<credentials removed>@"
                rest = rest[rest.index(after: at)...]
            }
        }
        return result + rest
    }
}
