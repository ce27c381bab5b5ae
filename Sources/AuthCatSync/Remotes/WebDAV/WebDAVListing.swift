import Foundation

/// A `PROPFIND` reply (`207 Multi-Status`): each entry's href, whether it is a folder, its size and its ETag.
///
/// Read with the bounded reader of S3 replies; the reply is one folder's
/// entries, so its bounds follow `RemoteObject.maximumListed`.
struct WebDAVListing {
    struct Entry: Equatable {
        var href: String
        /// The name relative to the remote's base folder, filled in by the remote.
        var name: String = ""
        var isFolder: Bool
        var size: Int
        /// The ETag without a weak `W/` mark (Apache marks one weak for a
        /// second after a write, then strong: the same file, the same version).
        var version: String?
    }

    /// The properties asked for; the others are not sent.
    static let request = Data(
        ("<?xml version=\"1.0\" encoding=\"utf-8\"?><D:propfind xmlns:D=\"DAV:\"><D:prop>"
            + "<D:resourcetype/><D:getcontentlength/><D:getetag/><D:getlastmodified/></D:prop></D:propfind>").utf8)

    /// A folder's reply of `maximumListed` entries of about 400 bytes each fits.
    static let maximumBytes = RemoteObject.maximumSize

    private static let response = "multistatus/response"
    private static let property = response + "/propstat/prop"
    private static let wanted: Set<String> = [
        response + "/href", response + "/propstat/status", property + "/getcontentlength",
        property + "/getetag", property + "/getlastmodified", property + "/resourcetype/collection",
    ]

    let entries: [Entry]

    /// - Throws: `S3XMLReader.Failure` if it is not a multi-status reply within the bounds.
    init(_ data: Data, deadline: ContinuousClock.Instant?) throws {
        var reader = S3XMLReader(
            Array(data), wanted: Self.wanted, deadline: deadline,
            maximumElements: RemoteObject.maximumListed * 12 + 64)
        let read = try reader.read()
        guard read.root == "multistatus" else {
            throw S3XMLReader.Failure.unexpected("the reply is a \(read.root), not a multistatus")
        }
        var entries: [Entry] = []
        var current: Entry?
        // A propstat's properties count only once its status, which follows them, says 200.
        var pending: [S3XMLDocument.Leaf] = []
        for leaf in read.leaves {
            switch leaf.path {
            case Self.response + "/href":
                if let current { entries.append(current) }
                current = Entry(
                    href: leaf.text.trimmingCharacters(in: .whitespacesAndNewlines), isFolder: false, size: 0)
                pending = []
            case Self.response + "/propstat/status":
                if leaf.text.split(separator: " ").dropFirst().first == "200" {
                    for property in pending { current?.apply(property) }
                }
                pending = []
            default:
                pending.append(leaf)
            }
        }
        if let current { entries.append(current) }
        self.entries = entries
    }
}

extension WebDAVListing.Entry {
    fileprivate mutating func apply(_ leaf: S3XMLDocument.Leaf) {
        let text = leaf.text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch leaf.path.split(separator: "/").last {
        case "collection": isFolder = true
        case "getcontentlength": size = Int(text).map { max(0, $0) } ?? size
        case "getetag" where !text.isEmpty:
            version = text.hasPrefix("W/") ? String(text.dropFirst(2)) : text
        case "getlastmodified" where version == nil && !text.isEmpty:
            // Without an ETag, the time and size tell a rewrite (to the second).
            version = "\(text)/\(size)"
        default: break
        }
    }
}
