import Foundation

/// The `<Error>` document S3 sends with a failure status.
struct S3ErrorReply: Equatable {
    /// The error code, e.g. `NoSuchBucket`; only letters and digits are kept.
    var code: String
    /// The region the bucket is really in, when S3 says so.
    var bucketRegion: String?

    /// Parses an error document; `nil` if there is none (HEAD replies have no body).
    init?(_ data: Data) {
        guard !data.isEmpty, let document = S3XMLDocument(data), let code = document.first("Error/Code") else { return nil }
        // The code goes into messages; keep it to a plain word whatever the server sent.
        self.code = String(code.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.prefix(64))
        bucketRegion = document.first("Error/Region").map { String($0.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) }
    }

    init(code: String, bucketRegion: String? = nil) {
        self.code = code
        self.bucketRegion = bucketRegion
    }
}
