@testable import AuthCatSync
import Foundation
import XCTest

final class S3XMLReaderTests: XCTestCase {
    private func leaves(_ xml: String) -> [S3XMLDocument.Leaf]? {
        S3XMLDocument(Data(xml.utf8))?.leaves
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
        XCTAssertEqual(leaves(xml), [
            .init(path: "ListBucketResult/Name", text: "bucket"),
            .init(path: "ListBucketResult/Contents/Key", text: "devices/a&b"),
            .init(path: "ListBucketResult/Contents/Size", text: "12"),
            .init(path: "ListBucketResult/Empty", text: ""),
        ])
    }

    func testDecodesReferencesAndCDATA() {
        XCTAssertEqual(leaves("<a>&lt;&gt;&quot;&apos;&#233;&#x1F600;<![CDATA[<raw>&amp;]]></a>")?.first?.text, "<>\"'é😀<raw>&amp;")
    }

    func testRejectsMalformedDocuments() {
        for xml in ["", "<a>", "<a></b>", "<a></a><b></b>", "text", "<a>&bogus;</a>", "<a>&#xZZ;</a>",
                    "<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>", "<a><!-- unterminated </a>", "<?xml", "<a b=\"></a>"] {
            XCTAssertNil(leaves(xml), xml)
        }
    }
}
