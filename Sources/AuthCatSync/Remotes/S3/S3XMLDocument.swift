import Foundation

/// The text leaves of a small XML reply, each with the path of element names leading to it.
///
/// S3 replies (ListBucketResult, Error) are flat enough that a list of
/// `("ListBucketResult/Contents/Key", "manifest")` pairs, in document order,
/// is all that is needed. Namespace prefixes and attributes are dropped.
///
/// Read by `S3XMLReader` rather than Foundation's XMLParser: FoundationXML
/// links libxml2 and ICU, which every authcat process would load at start-up
/// (about 2 ms, more than `authcat code` does in all) for the few commands
/// that talk to S3.
struct S3XMLDocument {
    struct Leaf: Equatable {
        var path: String
        var text: String
    }

    /// The name of the root element, without its namespace prefix.
    let root: String
    let leaves: [Leaf]

    /// Reads `data`, keeping the leaves at the `wanted` paths (every leaf when `nil`).
    ///
    /// - Parameter deadline: when to give up reading; `nil` for never (tests).
    /// - Throws: `S3XMLReader.Failure` if it is not well-formed XML of the
    ///   kind S3 sends, or is beyond the reader's bounds or the deadline.
    init(_ data: Data, wanted: Set<String>?, deadline: ContinuousClock.Instant?) throws {
        var reader = S3XMLReader(Array(data), wanted: wanted, deadline: deadline)
        let read = try reader.read()
        root = read.root
        leaves = read.leaves
    }

    /// The text of the first leaf at `path`.
    func first(_ path: String) -> String? {
        leaves.first { $0.path == path }?.text
    }
}
