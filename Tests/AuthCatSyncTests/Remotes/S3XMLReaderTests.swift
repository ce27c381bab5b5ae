import Foundation
import XCTest

@testable import AuthCatSync

final class S3XMLReaderTests: XCTestCase {
    private func leaves(_ xml: String) -> [S3XMLDocument.Leaf]? {
        try? S3XMLDocument(Data(xml.utf8), wanted: nil, deadline: nil).leaves
    }

    func testReadsLeavesWithPathsDroppingNamespacesAndAttributes() {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment -->
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
              <Name>bucket</Name>
              <s3:Contents a="1 > 0"><Key>devices/a&amp;b</Key><Size>12</Size></s3:Contents>
              <Empty/>
            </ListBucketResult>
            """
        XCTAssertEqual(
            leaves(xml),
            [
                .init(path: "ListBucketResult/Name", text: "bucket"),
                .init(path: "ListBucketResult/Contents/Key", text: "devices/a&b"),
                .init(path: "ListBucketResult/Contents/Size", text: "12"),
                .init(path: "ListBucketResult/Empty", text: ""),
            ])
    }

    func testDecodesReferencesAndCDATA() {
        XCTAssertEqual(
            leaves("<a>&lt;&gt;&quot;&apos;&#233;&#x1F600;<![CDATA[<raw>&amp;]]></a>")?.first?.text, "<>\"'é😀<raw>&amp;"
        )
    }

    func testRejectsMalformedDocuments() {
        for xml in [
            "", "<a>", "<a></b>", "<a></a><b></b>", "text", "<a>&bogus;</a>", "<a>&#xZZ;</a>",
            "<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>", "<a><!-- unterminated </a>", "<?xml", "<a b=\"></a>",
        ] {
            XCTAssertNil(leaves(xml), xml)
        }
    }

    private func failure(_ xml: String, deadline: ContinuousClock.Instant? = nil) -> S3XMLReader.Failure? {
        do {
            _ = try S3XMLDocument(Data(xml.utf8), wanted: nil, deadline: deadline)
            return nil
        } catch {
            return error as? S3XMLReader.Failure
        }
    }

    func testNestingIsBoundedAtTheDocumentedDepth() {
        let depth = S3XMLReader.maximumDepth
        let deepest = String(repeating: "<a>", count: depth) + "x" + String(repeating: "</a>", count: depth)
        XCTAssertEqual(leaves(deepest)?.first?.path, Array(repeating: "a", count: depth).joined(separator: "/"))
        XCTAssertEqual(failure("<b>" + deepest + "</b>"), .tooDeep)
        // The review's listing: 30,000 nested elements, refused at the first too many.
        XCTAssertEqual(
            failure(String(repeating: "<a>", count: 30_000) + String(repeating: "</a>", count: 30_000)), .tooDeep)
    }

    func testElementsAreBoundedAtTheDocumentedCount() {
        let fits = "<r>" + String(repeating: "<x/>", count: S3XMLReader.maximumElements - 1) + "</r>"
        XCTAssertEqual(leaves(fits)?.count, S3XMLReader.maximumElements - 1)
        XCTAssertEqual(
            failure("<r>" + String(repeating: "<x/>", count: S3XMLReader.maximumElements) + "</r>"), .tooManyElements)
    }

    func testEveryLeafAtTheDeepestPathIsReadAndOnlyWantedOnesAreKept() throws {
        // Many leaves under the deepest path: each leaf's path is kept, not rebuilt.
        let depth = S3XMLReader.maximumDepth - 1
        let open = (0..<depth).map { "<n\($0)>" }.joined()
        let close = (0..<depth).reversed().map { "</n\($0)>" }.joined()
        let count = S3XMLReader.maximumElements - depth - 1
        let xml = open + String(repeating: "<k>v</k>", count: count) + "<w>kept</w>" + close
        let path = (0..<depth).map { "n\($0)" }.joined(separator: "/")
        let everything = try S3XMLDocument(Data(xml.utf8), wanted: nil, deadline: nil)
        XCTAssertEqual(everything.leaves.count, count + 1)
        XCTAssertEqual(everything.root, "n0")
        let wanted = try S3XMLDocument(Data(xml.utf8), wanted: [path + "/w"], deadline: nil)
        XCTAssertEqual(wanted.leaves, [.init(path: path + "/w", text: "kept")])
    }

    func testAReadPastItsDeadlineStops() {
        let xml = "<r>" + String(repeating: "<x/>", count: 5_000) + "</r>"
        XCTAssertEqual(failure(xml, deadline: .now - .seconds(1)), .deadlineExceeded)
        XCTAssertNil(failure(xml, deadline: .now + .seconds(3_600)))
    }

    func testLongNamesAndUnendedReferencesAreRefused() {
        let long = String(repeating: "n", count: S3XMLReader.maximumNameLength + 1)
        XCTAssertNotNil(failure("<\(long)></\(long)>"))
        XCTAssertNotNil(failure("<a>&amp" + String(repeating: "x", count: 100_000) + ";</a>"))
    }

    func testListPageAndErrorReplyReportWhyTheyAreRefused() {
        let deep =
            "<ListBucketResult>" + String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40)
            + "</ListBucketResult>"
        XCTAssertThrowsError(try S3ListPage(Data(deep.utf8), deadline: nil)) { error in
            XCTAssertEqual(error as? S3XMLReader.Failure, .tooDeep)
            XCTAssertEqual("\(error)", "its elements nest more than \(S3XMLReader.maximumDepth) deep")
        }
        XCTAssertNil(
            S3ErrorReply(
                Data(
                    ("<Error><Code>X</Code>" + String(repeating: " ", count: S3ErrorReply.maximumBytes) + "</Error>")
                        .utf8),
                deadline: nil), "an error reply over its bound is not read")
    }
}
