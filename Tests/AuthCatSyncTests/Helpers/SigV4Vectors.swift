import Foundation

/// One known-answer case from `Vectors/sigv4.json`.
struct SigV4Vector: Decodable {
    var name: String
    var source: String
    var accessKeyId: String
    var secretAccessKey: String
    var region: String
    var service: String
    var timestamp: String
    var method: String
    var path: String
    /// The raw query string as sent; a name without `=` has an empty value.
    var query: String
    var headers: [[String]]
    var body: String
    var canonicalRequest: String
    var stringToSign: String
    var authorization: String

    /// The decoded query parameters, in the order given.
    var queryParameters: [(name: String, value: String)] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in String(text).removingPercentEncoding ?? String(text) }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// Loads every case from the test bundle.
    static func load() throws -> [SigV4Vector] {
        struct File: Decodable { var cases: [SigV4Vector] }
        guard let url = Bundle.module.url(forResource: "sigv4", withExtension: "json", subdirectory: "Vectors") else {
            throw CocoaError(
                .fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "Vectors/sigv4.json is not in the test bundle"])
        }
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).cases
    }
}
