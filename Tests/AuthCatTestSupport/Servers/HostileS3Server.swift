import Foundation

/// A small S3 on loopback that keeps objects in memory and answers honestly
/// until a test turns it hostile: listings nested deeper than any reply, or
/// crowded with leaves, and object reads over the size bound, or whose
/// `content-length` lies. Built on `CannedHTTPServer`; path-style requests
/// only, signatures not checked, one page per listing.
public final class HostileS3Server: @unchecked Sendable {
    /// How it answers.
    public enum Mode: Sendable {
        case honest
        /// Every listing is a `ListBucketResult` with `depth` nested elements in it.
        case nestedListing(depth: Int)
        /// Every listing is a `ListBucketResult` with `leaves` empty elements in it.
        case crowdedListing(leaves: Int)
        /// Every listing is a page of `keys` new keys under its prefix, and
        /// promises more with a new continuation token, without end.
        case endlessListing(keys: Int)
        /// A GET of `key` announces `bytes` bytes in its `content-length`, and sends none.
        case announcedOversize(key: String, bytes: Int)
        /// A GET of `key` sends `bytes` zero bytes without a `content-length` (the connection's end ends it).
        case streamedOversize(key: String, bytes: Int)
        /// A GET of `key` sends zero bytes without end, in chunks.
        case endlessObject(key: String)
        /// Every listing is a `ListBucketResult` whose chunked body never ends.
        case endlessListingReply
        /// A GET of `key` sends the object whole but announces half its length.
        case lyingLength(key: String)
        /// The first `method` request whose key `matches` gets no answer and
        /// changes nothing, as from a server that hangs: its client waits
        /// there until a test kills it (`stalledKey` says it arrived). Honest
        /// before and after.
        case stall(method: String, matches: @Sendable (String) -> Bool)
    }

    public static let bucket = "authcat-hostile"
    /// Credentials the server ignores, for the AWS environment variables.
    public static let environment = ["AWS_ACCESS_KEY_ID": "AKIAHOSTILE000000000", "AWS_SECRET_ACCESS_KEY": "ignored"]

    private let lock = NSLock()
    private var objects: [String: (data: Data, version: Int)] = [:]
    private var writes = 0
    private var pagesListed = 0
    private var currentMode = Mode.honest
    private var stalled: String?
    private var server: CannedHTTPServer?

    public init() throws {
        server = try CannedHTTPServer { [weak self] request in
            self?.answer(request) ?? .bytes(CannedHTTPServer.reply(503))
        }
    }

    deinit { stop() }

    public var port: Int { server?.port ?? 0 }

    /// An `s3://` location for the bucket and `prefix`, on this server.
    public func location(prefix: String) -> String {
        "s3://\(Self.bucket)/\(prefix)?endpoint=http://127.0.0.1:\(port)"
    }

    public var mode: Mode {
        get { lock.withLock { currentMode } }
        set { lock.withLock { currentMode = newValue } }
    }

    /// The key of the request `.stall` held, once one arrived.
    public var stalledKey: String? { lock.withLock { stalled } }

    /// Every stored key, sorted.
    public var keys: [String] { lock.withLock { objects.keys.sorted() } }

    /// How many listing pages were asked for.
    public var listRequests: Int { lock.withLock { pagesListed } }

    /// Stores `key` again unchanged, with a new ETag, as a repair would.
    public func touch(_ key: String) {
        lock.withLock {
            guard let object = objects[key] else { return }
            writes += 1
            objects[key] = (object.data, writes)
        }
    }

    public func stop() {
        server?.stop()
    }

    private func answer(_ request: CannedHTTPServer.Request) -> CannedHTTPServer.Answer {
        let words = request.line.split(separator: " ")
        guard words.count == 3, let url = URLComponents(string: "http://server" + words[1]) else {
            return .bytes(CannedHTTPServer.reply(400))
        }
        let bucketPath = "/" + Self.bucket
        guard url.path == bucketPath || url.path.hasPrefix(bucketPath + "/") else {
            return .bytes(Self.error(404, "NoSuchBucket"))
        }
        let key = String(url.path.dropFirst(bucketPath.count + 1))
        let query = Dictionary((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { $1 }
        return lock.withLock {
            if case .stall(let method, let matches) = currentMode, words[0] == method, matches(key) {
                currentMode = .honest
                stalled = key
                return .silence
            }
            return switch words[0] {
            case "GET" where query["list-type"] != nil: list(prefix: query["prefix"] ?? "")
            case "GET": read(key)
            case "HEAD": .bytes(CannedHTTPServer.reply(objects[key] == nil ? 404 : 200))
            case "PUT": write(key, request)
            case "DELETE": delete(key)
            default: .bytes(CannedHTTPServer.reply(405))
            }
        }
    }

    private func list(prefix: String) -> CannedHTTPServer.Answer {
        pagesListed += 1
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult><Name>\(Self.bucket)</Name>"
        switch currentMode {
        case .endlessListingReply:
            let piece = "<Contents><Key>\(prefix)x</Key><ETag>&quot;e&quot;</ETag><Size>1</Size></Contents>"
            return Self.endless(start: xml, piece: String(repeating: piece, count: 256))
        case .endlessListing(let keys):
            for index in 0..<keys {
                xml +=
                    "<Contents><Key>\(prefix)p\(pagesListed)-\(index)</Key><ETag>&quot;e&quot;</ETag><Size>1</Size></Contents>"
            }
            xml +=
                "<IsTruncated>true</IsTruncated><NextContinuationToken>t\(pagesListed)</NextContinuationToken></ListBucketResult>"
            return .bytes(CannedHTTPServer.reply(200, body: Data(xml.utf8)))
        case .nestedListing(let depth):
            xml += String(repeating: "<Contents>", count: depth) + String(repeating: "</Contents>", count: depth)
        case .crowdedListing(let leaves):
            xml += String(repeating: "<Contents><Key>x</Key><Size>1</Size></Contents>", count: leaves / 2)
        default:
            for (key, object) in objects.sorted(by: { $0.key < $1.key }) where key.hasPrefix(prefix) {
                xml +=
                    "<Contents><Key>\(key)</Key><ETag>&quot;v\(object.version)&quot;</ETag><Size>\(object.data.count)</Size></Contents>"
            }
        }
        xml += "<IsTruncated>false</IsTruncated></ListBucketResult>"
        return .bytes(CannedHTTPServer.reply(200, body: Data(xml.utf8)))
    }

    private func read(_ key: String) -> CannedHTTPServer.Answer {
        guard let object = objects[key] else { return .bytes(Self.error(404, "NoSuchKey")) }
        switch currentMode {
        case .announcedOversize(let hostile, let bytes) where hostile == key:
            return .bytes(CannedHTTPServer.reply(200, headers: ["content-length": String(bytes)], length: false))
        case .endlessObject(let hostile) where hostile == key:
            return Self.endless(start: "", piece: String(repeating: "0", count: 65_536))
        case .streamedOversize(let hostile, let bytes) where hostile == key:
            return .bytes(CannedHTTPServer.reply(200, body: Data(count: bytes), length: false))
        case .lyingLength(let hostile) where hostile == key:
            let head = CannedHTTPServer.reply(
                200, headers: ["content-length": String(object.data.count / 2)], length: false)
            return .bytes(head + object.data)
        default:
            return .bytes(CannedHTTPServer.reply(200, headers: ["etag": "\"v\(object.version)\""], body: object.data))
        }
    }

    private func write(_ key: String, _ request: CannedHTTPServer.Request) -> CannedHTTPServer.Answer {
        if request.header("if-none-match") == "*", objects[key] != nil {
            return .bytes(Self.error(412, "PreconditionFailed"))
        }
        writes += 1
        objects[key] = (request.body, writes)
        return .bytes(CannedHTTPServer.reply(200, headers: ["etag": "\"v\(writes)\""]))
    }

    private func delete(_ key: String) -> CannedHTTPServer.Answer {
        objects[key] = nil
        return .bytes(CannedHTTPServer.reply(204))
    }

    /// A 200 whose chunked body is `start`, then `piece` again and again until the client goes away.
    private static func endless(start: String, piece: String) -> CannedHTTPServer.Answer {
        func chunk(_ text: String) -> Data {
            text.isEmpty ? Data() : Data((String(text.utf8.count, radix: 16) + "\r\n" + text + "\r\n").utf8)
        }
        let head = CannedHTTPServer.reply(200, headers: ["transfer-encoding": "chunked"], length: false)
        return .stream(head: head + chunk(start), piece: chunk(piece), count: nil, tail: Data())
    }

    private static func error(_ status: Int, _ code: String) -> Data {
        CannedHTTPServer.reply(status, body: Data("<?xml version=\"1.0\"?><Error><Code>\(code)</Code></Error>".utf8))
    }
}
