import Foundation

/// Where an S3 remote keeps its objects and how to talk to the server.
///
/// Parsed from `s3://bucket/prefix?endpoint=…&region=…&path_style=…&profile=…`
/// by `RemoteLocation`. Holds no credentials.
public struct S3Configuration: Sendable, Equatable {
    /// The bucket name.
    public var bucket: String
    /// The key prefix under which objects live, without leading or trailing `/`; may be empty.
    public var prefix: String
    /// `http` or `https`.
    public var scheme: String
    /// The server's host name or address, without the bucket.
    public var host: String
    /// The port, if not the scheme's default.
    public var port: Int?
    /// The signing region.
    public var region: String
    /// Whether the bucket goes in the path (`host/bucket/key`) rather than the host name (`bucket.host/key`).
    public var pathStyle: Bool
    /// The `~/.aws/credentials` profile named in the location, if any.
    public var profile: String?
    /// Whether the server honours `If-None-Match: *` on PUT. When `false`,
    /// create-only writes check with HEAD first, which two racing writers can
    /// both pass.
    public var conditionalWrites: Bool
    /// Whether `endpoint=` was given (a non-AWS server).
    public var hasCustomEndpoint: Bool

    public init(
        bucket: String, prefix: String = "", scheme: String = "https", host: String, port: Int? = nil,
        region: String = "us-east-1", pathStyle: Bool, profile: String? = nil, conditionalWrites: Bool = true,
        hasCustomEndpoint: Bool = true
    ) {
        self.bucket = bucket
        self.prefix = prefix
        self.scheme = scheme
        self.host = host
        self.port = port
        self.region = region
        self.pathStyle = pathStyle
        self.profile = profile
        self.conditionalWrites = conditionalWrites
        self.hasCustomEndpoint = hasCustomEndpoint
    }

    /// The endpoint URL, e.g. `http://127.0.0.1:9000`.
    public var endpoint: String {
        "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")"
    }

    /// The location as a URL, without credentials; what `displayLocation` shows.
    public var displayLocation: String {
        var query: [String] = []
        if hasCustomEndpoint { query.append("endpoint=\(endpoint)") }
        if region != "us-east-1" || hasCustomEndpoint { query.append("region=\(region)") }
        if hasCustomEndpoint != pathStyle { query.append("path_style=\(pathStyle)") }
        if let profile { query.append("profile=\(profile)") }
        if !conditionalWrites { query.append("conditional_writes=false") }
        let path = prefix.isEmpty ? "" : "/" + prefix
        return "s3://\(bucket)\(path)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    /// Whether requests travel unencrypted to another machine: an `http://`
    /// endpoint that is not loopback (127.0.0.0/8, ::1, localhost).
    ///
    /// Credentials are only signed, never sent, but the objects and the
    /// listing can be read and altered on the way; sealed objects are still
    /// checked, yet a listing can hide or replay them.
    public var isCleartextOverNetwork: Bool {
        scheme == "http" && !Self.isLoopback(host)
    }

    static func isLoopback(_ host: String) -> Bool {
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && UInt8(part) != nil
            }
    }

    /// The `Host` header value for requests: the bucket is prepended in virtual-hosted style.
    var requestHost: String {
        let name = pathStyle ? host : "\(bucket).\(host)"
        return name + (port.map { ":\($0)" } ?? "")
    }

    /// The decoded request path of an object key, or of the bucket when `key` is `nil`.
    func requestPath(key: String?) -> String {
        let base = pathStyle ? "/" + bucket : ""
        guard let key else { return pathStyle ? base : "/" }
        return base + "/" + key
    }

    /// The full key of an object name: the prefix, then the name.
    func key(for name: String) -> String {
        prefix.isEmpty ? name : prefix + "/" + name
    }
}
