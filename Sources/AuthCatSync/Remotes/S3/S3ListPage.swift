import Foundation

/// One page of a ListObjectsV2 reply.
struct S3ListPage: Equatable {
    struct Entry: Equatable {
        var key: String
        var size: Int
        /// The object's ETag, which changes when it is written again.
        var etag: String? = nil
    }

    /// The most objects asked for per page (`max-keys`), AWS's own maximum.
    static let maximumKeys = 1_000
    /// The longest list reply read: a page of 1,000 keys of 1,024 bytes with
    /// their sizes, ETags, dates and owners stays far below it.
    static let maximumBytes = 8 * 1024 * 1024

    private static let wanted: Set<String> = [
        "ListBucketResult/Contents/Key", "ListBucketResult/Contents/ETag", "ListBucketResult/Contents/Size",
        "ListBucketResult/IsTruncated", "ListBucketResult/NextContinuationToken",
    ]

    var entries: [Entry]
    /// The token for the next page, if the listing is truncated.
    var nextContinuationToken: String?

    /// Reads a `ListBucketResult` document.
    ///
    /// - Parameter deadline: when to give up reading; `nil` for never (tests).
    /// - Throws: `S3XMLReader.Failure` if it is not one, or is beyond the reader's bounds.
    init(_ data: Data, deadline: ContinuousClock.Instant?) throws {
        let document = try S3XMLDocument(data, wanted: Self.wanted, deadline: deadline)
        guard document.root == "ListBucketResult" else {
            throw S3XMLReader.Failure.unexpected("it is a \(document.root.prefix(40)) document, not a ListBucketResult")
        }
        var entries: [Entry] = []
        var key: String?
        var etag: String?
        for leaf in document.leaves {
            switch leaf.path {
            case "ListBucketResult/Contents/Key":
                key = leaf.text
                etag = nil
            case "ListBucketResult/Contents/ETag":
                // AWS and moto put the ETag before the size; a store that puts it after still tags the entry.
                if key == nil, !entries.isEmpty {
                    entries[entries.count - 1].etag = leaf.text
                } else {
                    etag = leaf.text
                }
            case "ListBucketResult/Contents/Size":
                guard let name = key else {
                    throw S3XMLReader.Failure.unexpected("an object's size comes without its key")
                }
                guard let size = Int(leaf.text), size >= 0 else {
                    throw S3XMLReader.Failure.unexpected("an object's size is not a number of bytes")
                }
                entries.append(Entry(key: name, size: size, etag: etag))
                key = nil
            default: continue
            }
        }
        self.entries = entries
        let truncated = document.first("ListBucketResult/IsTruncated") == "true"
        nextContinuationToken = truncated ? document.first("ListBucketResult/NextContinuationToken") : nil
    }

    init(entries: [Entry], nextContinuationToken: String?) {
        self.entries = entries
        self.nextContinuationToken = nextContinuationToken
    }
}
