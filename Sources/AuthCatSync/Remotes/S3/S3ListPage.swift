import Foundation

/// One page of a ListObjectsV2 reply.
struct S3ListPage: Equatable {
    struct Entry: Equatable {
        var key: String
        var size: Int
        /// The object's ETag, which changes when it is written again.
        var etag: String? = nil
    }

    var entries: [Entry]
    /// The token for the next page, if the listing is truncated.
    var nextContinuationToken: String?

    /// Parses a `ListBucketResult` document; `nil` if it is not one.
    init?(_ data: Data) {
        guard let document = S3XMLDocument(data), document.leaves.first?.path.hasPrefix("ListBucketResult") == true else {
            return nil
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
                if key == nil, !entries.isEmpty { entries[entries.count - 1].etag = leaf.text } else { etag = leaf.text }
            case "ListBucketResult/Contents/Size":
                guard let name = key, let size = Int(leaf.text) else { return nil }
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
