import Foundation

/// The `<Error>` document S3 sends with a failure status.
struct S3ErrorReply: Equatable {
    /// The longest error reply read; S3's are a few hundred bytes.
    static let maximumBytes = 64 * 1024

    private static let wanted: Set<String> = ["Error/Code", "Error/Region"]

    /// The error code, e.g. `NoSuchBucket`; only letters and digits are kept.
    var code: String
    /// The region the bucket is really in, when S3 says so.
    var bucketRegion: String?

    /// Reads an error document; `nil` if there is none (HEAD replies have no
    /// body) or it cannot be read within the reader's bounds and `deadline`
    /// (`nil` for none): the status alone then says what failed.
    init?(_ data: Data, deadline: ContinuousClock.Instant?) {
        guard !data.isEmpty, data.count <= Self.maximumBytes,
            let document = try? S3XMLDocument(data, wanted: Self.wanted, deadline: deadline),
            let code = document.first("Error/Code")
        else { return nil }
        // The code goes into messages; keep it to a plain word whatever the server sent.
        self.code = String(code.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.prefix(64))
        bucketRegion = document.first("Error/Region").map {
            String($0.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }.prefix(64))
        }
    }

    init(code: String, bucketRegion: String? = nil) {
        self.code = code
        self.bucketRegion = bucketRegion
    }
}
