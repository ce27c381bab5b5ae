import Foundation

/// Where a WebDAV remote keeps its objects: a folder on an HTTP(S) server.
///
/// Parsed from `davs://[USER@]HOST[:PORT]/PATH` (HTTPS) or `dav://…` (plain
/// HTTP) by `RemoteLocation`. Holds no password: that comes from
/// `AUTHCAT_WEBDAV_PASSWORD_FILE`, `~/.netrc` or the terminal
/// (`WebDAVPasswordSource`).
///
/// Query flags: `allow_http=true` lets `dav://` reach a host that is not
/// loopback, which sends the password in clear and is refused without it.
public struct WebDAVConfiguration: Sendable, Equatable {
    /// `http` or `https`.
    public var scheme: String
    /// The server's host name or address (an IPv6 address in brackets).
    public var host: String
    /// The port, if not the scheme's default.
    public var port: Int?
    /// The user name, if the URL names one (else `~/.netrc` may).
    public var user: String?
    /// The folder that holds the objects, percent-encoded, starting with `/`, without a trailing `/`.
    public var path: String
    /// Whether the user allowed plain HTTP to a host that is not loopback.
    public var allowHTTP: Bool

    public init(
        scheme: String = "https", host: String, port: Int? = nil, user: String? = nil, path: String,
        allowHTTP: Bool = false
    ) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.user = user
        self.path = path
        self.allowHTTP = allowHTTP
    }

    /// The origin requests go to, e.g. `https://cloud.example.com:8443`.
    var origin: String {
        "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")"
    }

    /// The location as the user wrote it, without any password.
    public var displayLocation: String {
        let userPart = user.map { "\(Self.encodeUser($0))@" } ?? ""
        let portPart = port.map { ":\($0)" } ?? ""
        let query = allowHTTP ? "?allow_http=true" : ""
        return "\(scheme == "https" ? "davs" : "dav")://\(userPart)\(host)\(portPart)\(path)\(query)"
    }

    /// What to write when this davs:// location reaches a port that speaks
    /// plain http: the same location as dav://, which off this machine also
    /// needs allow_http=true.
    var plainHTTPAdvice: String {
        var plain = self
        plain.scheme = "http"
        plain.allowHTTP = plain.isCleartextOverNetwork
        let warning = plain.allowHTTP ? " (the password then travels unencrypted)" : ""
        return "; if it serves plain http, write the location as \(plain.displayLocation)\(warning)"
    }

    /// Whether the password and objects would travel unencrypted to another machine.
    public var isCleartextOverNetwork: Bool {
        scheme == "http" && !S3Configuration.isLoopback(host)
    }

    /// The URL of an object name (names hold only URL-safe characters), or of the folder itself for "".
    func url(for name: String) -> String {
        origin + path + "/" + name
    }

    /// The name an `href` this server sent stands for, relative to the base folder ("" for the folder itself),
    /// or nil if it is not inside the folder.
    ///
    /// An href is a path or a full URL; its path is percent-decoded (servers
    /// differ in what they encode) and its dot segments resolved (`a/../..`,
    /// `%2e%2e`) before it is compared with the folder, as a server would
    /// resolve it if asked. The host of a full URL is not compared (a server
    /// behind a proxy may name itself otherwise): a name is only ever requested
    /// from this configuration's origin.
    func name(ofHref href: String) -> String? {
        var text = Substring(href)
        if let schemeEnd = text.range(of: "://") {
            let afterScheme = text[schemeEnd.upperBound...]
            text = afterScheme[(afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex)...]
        }
        // A query or fragment is not part of the path.
        text = text.prefix { $0 != "?" && $0 != "#" }
        guard text.hasPrefix("/"), let decoded = text.removingPercentEncoding,
            let resolved = Self.resolvingDotSegments(decoded), let base = path.removingPercentEncoding,
            let folder = Self.resolvingDotSegments(base)
        else { return nil }
        guard resolved == folder || resolved.hasPrefix(folder + "/") else { return nil }
        return String(resolved.dropFirst(folder.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
    }

    /// An absolute path with its `.` and `..` segments resolved and empty ones dropped; nil if it climbs above `/`.
    static func resolvingDotSegments(_ path: String) -> String? {
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..":
                guard segments.popLast() != nil else { return nil }
            default: segments.append(segment)
            }
        }
        return "/" + segments.joined(separator: "/")
    }

    private static func encodeUser(_ user: String) -> String {
        user.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? user
    }

    /// Reads `dav://` and `davs://` URLs; `shown` is the URL without credentials, for errors.
    static func parse(_ components: URLComponents, shown: String) throws -> WebDAVConfiguration {
        let scheme = components.scheme?.lowercased() == "davs" ? "https" : "http"
        guard let host = components.host, !host.isEmpty else {
            throw RemoteError.invalidLocation(
                location: shown,
                reason: "name the server, as in davs://alice@cloud.example.com/remote.php/dav/files/alice/authcat")
        }
        if components.password != nil {
            throw RemoteError.invalidLocation(location: shown, reason: passwordAdvice)
        }
        if components.fragment != nil {
            throw RemoteError.invalidLocation(location: shown, reason: "WebDAV locations take no fragment")
        }
        var allowHTTP = false
        for item in components.queryItems ?? [] {
            switch (item.name, item.value?.lowercased()) {
            case ("allow_http", "true"): allowHTTP = true
            case ("allow_http", "false"): allowHTTP = false
            default:
                throw RemoteError.invalidLocation(
                    location: shown, reason: "unknown query '\(item.name)'; WebDAV locations take only allow_http=true")
            }
        }
        let path = components.percentEncodedPath.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        guard !path.isEmpty else {
            throw RemoteError.invalidLocation(
                location: shown,
                reason: "name a folder for the vault, as in davs://host/remote.php/dav/files/alice/authcat")
        }
        if path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) {
            throw RemoteError.invalidLocation(location: shown, reason: "the folder path must not contain '.' or '..'")
        }
        let configuration = WebDAVConfiguration(
            scheme: scheme, host: components.percentEncodedHost ?? host, port: components.port,
            user: components.user.flatMap { $0.isEmpty ? nil : $0 }, path: "/" + path, allowHTTP: allowHTTP)
        if configuration.isCleartextOverNetwork, !allowHTTP {
            throw RemoteError.invalidLocation(
                location: shown,
                reason: "dav:// sends the WebDAV password unencrypted to \(host); use davs://, or add ?allow_http=true "
                    + "if the network between you and the server is yours")
        }
        return configuration
    }

    static let passwordAdvice =
        "the password does not belong in the URL; put it in a file named by AUTHCAT_WEBDAV_PASSWORD_FILE, "
        + "in ~/.netrc (machine HOST login USER password …), or type it when asked"
}
