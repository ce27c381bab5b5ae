import Foundation

/// A small WebDAV server on loopback that keeps its files in memory and
/// answers honestly until a test turns it hostile: listings or objects that
/// never end, folders nested without end, hrefs that leave the folder, or
/// replies slow enough to keep a sync busy. Built on `CannedHTTPServer`
/// (one connection at a time, each closed after its answer); it takes any
/// password and keeps every request, so a test can check where they went.
public final class HostileWebDAVServer: @unchecked Sendable {
    /// How it answers.
    public enum Mode: Sendable {
        case honest
        /// Every listing is a 207 whose chunked body never ends.
        case endlessListing
        /// Every listing is a well-formed 207 padded, in chunks, to `bytes` bytes.
        case oversizedListing(bytes: Int)
        /// Every object read is a 200 whose chunked body never ends.
        case endlessObjects
        /// Every listing of a folder holds one more folder inside it, named
        /// with `nameLength` characters, and nothing else.
        case nestedFolders(nameLength: Int)
        /// Listings of the base folder also name folders and files outside it
        /// (`..`, `%2e%2e`, another path), which must never be requested.
        case escapingHrefs
        /// Every answer is honest but dribbled out, one byte every `interval` seconds.
        case slow(interval: TimeInterval)
    }

    /// The folder the remote's location names.
    public static let base = "/dav/vault"
    /// The folder the escaping hrefs point to, beside the base folder.
    public static let outside = "/dav/outside"

    private let lock = NSLock()
    private var files: [String: Data] = [:]
    /// Each file's ETag: the number of the write that stored it.
    private var versions: [String: Int] = [:]
    private var writes = 0
    private var folders: Set<String> = ["/", "/dav", outside]
    private var currentMode = Mode.honest
    private var server: CannedHTTPServer?

    public init() throws {
        server = try CannedHTTPServer { [weak self] request in
            self?.answer(request) ?? .bytes(CannedHTTPServer.reply(503))
        }
        // Something to find outside, should a request ever go there.
        files[Self.outside + "/secret"] = Data("outside".utf8)
    }

    deinit { stop() }

    public var port: Int { server?.port ?? 0 }

    /// A `dav://` location of the base folder on this server, for `user`.
    public func location(user: String = "alice") -> String {
        "dav://\(user)@127.0.0.1:\(port)\(Self.base)"
    }

    public var mode: Mode {
        get { lock.withLock { currentMode } }
        set { lock.withLock { currentMode = newValue } }
    }

    /// Every request so far, in order.
    public var requests: [CannedHTTPServer.Request] { server?.requests ?? [] }

    /// The decoded path of every request so far.
    public var requestedPaths: [String] {
        requests.compactMap { request in
            let words = request.line.split(separator: " ")
            return words.count == 3 ? String(words[1]).removingPercentEncoding : nil
        }
    }

    /// Stores every file again unchanged, with a new ETag, as a repair would.
    public func touchAll() {
        lock.withLock {
            for path in files.keys {
                writes += 1
                versions[path] = writes
            }
        }
    }

    public func stop() {
        server?.stop()
    }

    private func answer(_ request: CannedHTTPServer.Request) -> CannedHTTPServer.Answer {
        let words = request.line.split(separator: " ")
        guard words.count == 3, let decoded = String(words[1]).removingPercentEncoding else {
            return .bytes(CannedHTTPServer.reply(400))
        }
        let path = decoded.count > 1 && decoded.hasSuffix("/") ? String(decoded.dropLast()) : decoded
        let method = String(words[0])
        return lock.withLock {
            switch (currentMode, method) {
            case (.endlessListing, "PROPFIND"):
                return Self.chunked(
                    207, start: Self.multistatusStart, piece: Self.response(href: path + "/x", folder: false),
                    count: nil, end: "")
            case (.oversizedListing(let bytes), "PROPFIND"):
                let piece = Self.response(href: path + "/padding", folder: false)
                return Self.chunked(
                    207, start: Self.multistatusStart, piece: piece, count: bytes / piece.count + 1,
                    end: "</D:multistatus>")
            case (.endlessObjects, "GET") where files[path] != nil:
                return Self.chunked(200, start: "", piece: String(repeating: "x", count: 65_536), count: nil, end: "")
            case (.nestedFolders(let nameLength), "PROPFIND"):
                let child = path + "/d" + String(repeating: "n", count: max(0, nameLength - 1))
                return .bytes(Self.multistatus([(path + "/", true), (child + "/", true)]))
            case (.slow(let interval), _):
                let whole = honest(method, path: path, request: request)
                guard case .bytes(let bytes) = whole, let end = bytes.range(of: Data("\r\n\r\n".utf8)) else {
                    return whole
                }
                return .dribble(
                    head: bytes[..<end.upperBound], body: bytes[end.upperBound...], interval: interval)
            case (.escapingHrefs, "PROPFIND") where path == Self.base:
                guard case .bytes(let bytes) = honest(method, path: path, request: request) else {
                    return .bytes(CannedHTTPServer.reply(500))
                }
                return .bytes(Self.withEscapingEntries(bytes))
            default:
                return honest(method, path: path, request: request)
            }
        }
    }

    /// What a plain WebDAV server answers.
    private func honest(_ method: String, path: String, request: CannedHTTPServer.Request) -> CannedHTTPServer.Answer {
        let parent = (path as NSString).deletingLastPathComponent
        switch method {
        case "MKCOL":
            if folders.contains(path) || files[path] != nil { return .bytes(CannedHTTPServer.reply(405)) }
            guard folders.contains(parent) else { return .bytes(CannedHTTPServer.reply(409)) }
            folders.insert(path)
            return .bytes(CannedHTTPServer.reply(201))
        case "PUT":
            guard folders.contains(parent) else { return .bytes(CannedHTTPServer.reply(409)) }
            if request.header("if-none-match") == "*", files[path] != nil {
                return .bytes(CannedHTTPServer.reply(412))
            }
            files[path] = request.body
            writes += 1
            versions[path] = writes
            return .bytes(CannedHTTPServer.reply(201))
        case "GET", "HEAD":
            guard let data = files[path] else { return .bytes(CannedHTTPServer.reply(404)) }
            return .bytes(
                CannedHTTPServer.reply(
                    200, headers: ["etag": "\"v\(versions[path] ?? 0)\""], body: method == "GET" ? data : Data()))
        case "DELETE":
            if files.removeValue(forKey: path) != nil {
                versions[path] = nil
                return .bytes(CannedHTTPServer.reply(204))
            }
            guard folders.contains(path) else { return .bytes(CannedHTTPServer.reply(404)) }
            folders = folders.filter { $0 != path && !$0.hasPrefix(path + "/") }
            files = files.filter { !$0.key.hasPrefix(path + "/") }
            versions = versions.filter { files[$0.key] != nil }
            return .bytes(CannedHTTPServer.reply(204))
        case "PROPFIND":
            if let data = files[path] {
                return .bytes(Self.multistatus([(path, false)], sizes: [path: data.count], versions: versions))
            }
            guard folders.contains(path) else { return .bytes(CannedHTTPServer.reply(404)) }
            var entries: [(String, Bool)] = [(path + "/", true)]
            entries += folders.filter { ($0 as NSString).deletingLastPathComponent == path && $0 != path }
                .sorted().map { ($0 + "/", true) }
            entries += files.keys.filter { ($0 as NSString).deletingLastPathComponent == path }.sorted()
                .map { ($0, false) }
            return .bytes(Self.multistatus(entries, sizes: files.mapValues(\.count), versions: versions))
        default:
            return .bytes(CannedHTTPServer.reply(405))
        }
    }

    private static let multistatusStart = "<?xml version=\"1.0\" encoding=\"utf-8\"?><D:multistatus xmlns:D=\"DAV:\">"

    /// One `response` element: the href as given, a folder or a file.
    private static func response(href: String, folder: Bool, size: Int = 0, version: Int = 0) -> String {
        let type = folder ? "<D:resourcetype><D:collection/></D:resourcetype>" : "<D:resourcetype/>"
        let length =
            folder ? "" : "<D:getcontentlength>\(size)</D:getcontentlength><D:getetag>\"v\(version)\"</D:getetag>"
        return "<D:response><D:href>\(href)</D:href><D:propstat><D:prop>\(type)\(length)</D:prop>"
            + "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>"
    }

    /// A whole 207 reply; hrefs are percent-encoded where a path needs it.
    private static func multistatus(
        _ entries: [(path: String, folder: Bool)], sizes: [String: Int] = [:], versions: [String: Int] = [:]
    ) -> Data {
        var xml = multistatusStart
        for entry in entries {
            let href = entry.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? entry.path
            let key = entry.folder && entry.path.count > 1 ? String(entry.path.dropLast()) : entry.path
            xml += response(href: href, folder: entry.folder, size: sizes[key] ?? 0, version: versions[key] ?? 0)
        }
        xml += "</D:multistatus>"
        return CannedHTTPServer.reply(207, headers: ["content-type": "application/xml"], body: Data(xml.utf8))
    }

    /// An honest listing of the base folder with entries outside it added before its end.
    private static func withEscapingEntries(_ reply: Data) -> Data {
        guard let end = reply.range(of: Data("\r\n\r\n".utf8)) else { return reply }
        var xml = String(decoding: reply[end.upperBound...], as: UTF8.self)
        let escaping = [
            response(href: base + "/../outside/", folder: true),
            response(href: base + "/%2e%2e/outside/", folder: true),
            response(href: base + "/%2E%2E/%2e%2e/dav/outside/", folder: true),
            response(href: "http://127.0.0.1" + base + "/../outside/", folder: true),
            response(href: outside + "/", folder: true),
            response(href: base + "/../outside/secret", folder: false, size: 7),
            response(href: base + "/./../outside/secret", folder: false, size: 7),
        ].joined()
        xml = xml.replacingOccurrences(of: "</D:multistatus>", with: escaping + "</D:multistatus>")
        return CannedHTTPServer.reply(207, headers: ["content-type": "application/xml"], body: Data(xml.utf8))
    }

    /// A reply whose body is `start`, `piece` `count` times (without end when nil) and `end`, each a chunk.
    private static func chunked(
        _ status: Int, start: String, piece: String, count: Int?, end: String
    ) -> CannedHTTPServer.Answer {
        func chunk(_ text: String) -> Data {
            text.isEmpty ? Data() : Data((String(text.utf8.count, radix: 16) + "\r\n" + text + "\r\n").utf8)
        }
        let head = CannedHTTPServer.reply(
            status, headers: ["content-type": "application/xml", "transfer-encoding": "chunked"], length: false)
        return .stream(
            head: head + chunk(start), piece: chunk(piece), count: count, tail: chunk(end) + Data("0\r\n\r\n".utf8))
    }
}
