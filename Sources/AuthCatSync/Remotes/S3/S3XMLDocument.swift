import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The text leaves of a small XML reply, each with the path of element names leading to it.
///
/// S3 replies (ListBucketResult, Error) are flat enough that a list of
/// `("ListBucketResult/Contents/Key", "manifest")` pairs, in document order,
/// is all that is needed. Namespaces are dropped.
struct S3XMLDocument {
    struct Leaf: Equatable {
        var path: String
        var text: String
    }

    let leaves: [Leaf]

    /// Parses `data`; `nil` if it is not well-formed XML.
    init?(_ data: Data) {
        let collector = Collector()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = collector
        guard parser.parse() else { return nil }
        leaves = collector.leaves
    }

    /// The text of the first leaf at `path`.
    func first(_ path: String) -> String? {
        leaves.first { $0.path == path }?.text
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var leaves: [Leaf] = []
        private var stack: [String] = []
        /// Whether each open element has child elements (and so is no leaf).
        private var hasChildren: [Bool] = []
        private var text = ""

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            if !hasChildren.isEmpty { hasChildren[hasChildren.count - 1] = true }
            stack.append(elementName)
            hasChildren.append(false)
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            // Only leaves carry text; a container's would be the whitespace between its children.
            if hasChildren.last == false {
                leaves.append(Leaf(path: stack.joined(separator: "/"), text: text))
            }
            stack.removeLast()
            hasChildren.removeLast()
            text = ""
        }
    }
}
