import Foundation

/// Turns the parts of an `s3://` URL into an `S3Configuration`, with a clear error for each mistake.
struct S3LocationParser {
    let components: URLComponents
    /// The URL as it may be shown (credentials removed).
    let shown: String

    private static let knownOptions: Set<String> = [
        "endpoint", "region", "path_style", "profile", "conditional_writes",
    ]

    func configuration() throws -> S3Configuration {
        let options = try self.options()
        let bucket = try self.bucket()
        let prefix = try self.prefix()
        let region = options["region"] ?? "us-east-1"
        guard !region.isEmpty, region.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            throw invalid("region '\(region)' is not a region name such as us-east-1")
        }
        var configuration = S3Configuration(
            bucket: bucket, prefix: prefix, host: "s3.\(region).amazonaws.com", region: region, pathStyle: false,
            profile: try profile(options["profile"]),
            conditionalWrites: try flag("conditional_writes", options) ?? true,
            hasCustomEndpoint: false)
        if let endpoint = options["endpoint"] { try apply(endpoint: endpoint, to: &configuration) }
        // A bucket with dots cannot match the server's wildcard TLS certificate as a host name.
        configuration.pathStyle =
            try flag("path_style", options) ?? (configuration.hasCustomEndpoint || bucket.contains("."))
        return configuration
    }

    private func options() throws -> [String: String] {
        var options: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard Self.knownOptions.contains(item.name) else {
                throw invalid(
                    "unknown option '\(item.name)'; known options are \(Self.knownOptions.sorted().joined(separator: ", "))"
                )
            }
            guard let value = item.value, !value.isEmpty else { throw invalid("option '\(item.name)' needs a value") }
            guard options.updateValue(value, forKey: item.name) == nil else {
                throw invalid("option '\(item.name)' is given twice")
            }
        }
        if components.fragment != nil { throw invalid("s3 URLs take no fragment") }
        return options
    }

    private func bucket() throws -> String {
        guard let bucket = components.host, !bucket.isEmpty else {
            throw invalid("the URL names no bucket, as in s3://my-bucket/authcat")
        }
        if components.port != nil { throw invalid("put the server's port in endpoint=, not after the bucket") }
        let allowed = bucket.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "."
        }
        guard (3...63).contains(bucket.count), allowed, bucket.first != "-", bucket.first != ".",
            bucket.last != "-", bucket.last != "."
        else {
            throw invalid("'\(bucket)' is not a valid bucket name (3 to 63 lower-case letters, digits, '-' and '.')")
        }
        return bucket
    }

    private func prefix() throws -> String {
        let prefix = components.path.split(separator: "/", omittingEmptySubsequences: false)
            .drop(while: { $0.isEmpty }).joined(separator: "/")
        let trimmed = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        guard !trimmed.isEmpty else { return "" }
        guard RemoteObjectName.isValid(trimmed) else {
            throw invalid("the prefix '\(trimmed)' may only use letters, digits, '.', '_', '-' and '/'")
        }
        return trimmed
    }

    private func apply(endpoint: String, to configuration: inout S3Configuration) throws {
        guard let url = URLComponents(string: endpoint), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else {
            throw invalid("endpoint must be an http:// or https:// URL such as http://127.0.0.1:9000")
        }
        if url.user != nil || url.password != nil || endpoint.contains("@") {
            throw invalid("credentials do not belong in the endpoint URL")
        }
        if !(url.path.isEmpty || url.path == "/") || url.query != nil {
            throw invalid("endpoint must be only scheme, host and port, without a path")
        }
        configuration.scheme = scheme
        configuration.host = host.lowercased()
        configuration.port = url.port
        configuration.hasCustomEndpoint = true
    }

    private func profile(_ name: String?) throws -> String? {
        guard let name else { return nil }
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.@+".contains($0) }) else {
            throw invalid("profile '\(name)' is not a profile name")
        }
        return name
    }

    private func flag(_ name: String, _ options: [String: String]) throws -> Bool? {
        guard let value = options[name] else { return nil }
        switch value.lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: throw invalid("option '\(name)' must be true or false, not '\(value)'")
        }
    }

    private func invalid(_ reason: String) -> RemoteError {
        .invalidLocation(location: shown, reason: reason)
    }
}
