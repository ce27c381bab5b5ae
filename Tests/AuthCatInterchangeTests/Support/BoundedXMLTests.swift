import Foundation
import XCTest

@testable import AuthCatInterchange

final class BoundedXMLTests: XCTestCase {
    private static let roomy = BoundedXML.Limits(maximumBytes: 1 << 20, maximumDepth: 8, maximumElements: 100)

    private func read(
        _ xml: String, limits: BoundedXML.Limits = roomy, skipping: Set<String> = []
    ) throws
        -> BoundedXML.Element
    {
        try BoundedXML(Data(xml.utf8), limits: limits, skipping: skipping).root
    }

    func testElementsAttributesAndText() throws {
        let root = try read(
            """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment -->
            <?style sheet?>
            <a x="1" y='two &amp; &quot;three&quot;'>
              <b>&lt;b&gt; &#65;&#x1F431; &apos;</b><!-- c --><?pi inside?>
              <c/><b><![CDATA[<raw> & ]]>text</b>
            </a>
            <!-- after -->
            """)
        XCTAssertEqual(root.name, "a")
        XCTAssertEqual(root.attributes, ["x": "1", "y": "two & \"three\""])
        XCTAssertEqual(root.children.map(\.name), ["b", "c", "b"])
        XCTAssertEqual(root.children("b").map(\.text), ["<b> A🐱 '", "<raw> & text"])
        XCTAssertEqual(root.child("c")?.children.count, 0)
        XCTAssertNil(root.child("d"))
    }

    func testSkippedSubtreesAreCheckedButNotKept() throws {
        let root = try read(
            "<a><h><e><f>x</f></e><e/></h><k>kept</k></a>",
            limits: BoundedXML.Limits(maximumBytes: 100, maximumDepth: 4, maximumElements: 2), skipping: ["h"])
        XCTAssertEqual(root.children.map(\.name), ["k"])
        XCTAssertThrowsError(try read("<a><h><e></f></h></a>", skipping: ["h"])) {
            XCTAssertEqual($0 as? BoundedXML.Failure, .notWellFormed)
        }
    }

    func testDamagedHostileAndOversizedDocumentsAreRefused() {
        let limits = BoundedXML.Limits(maximumBytes: 64, maximumDepth: 3, maximumElements: 4)
        let cases: [(String, BoundedXML.Failure)] = [
            ("<a><b>x</a>", .notWellFormed), ("<a>unclosed", .notWellFormed), ("<a></a><b/>", .notWellFormed),
            ("<a>&bogus;</a>", .notWellFormed), ("<a>&#0;</a>", .notWellFormed), ("<a>&#xD800;</a>", .notWellFormed),
            ("<a x=1/>", .notWellFormed), ("<a><!-- open</a>", .notWellFormed), ("<a><![CDATA[x</a>", .notWellFormed),
            ("<a><!ENTITY x 'y'></a>", .notWellFormed), ("text", .notWellFormed), ("", .notWellFormed),
            ("<?xml version='1.0'?><!DOCTYPE a [<!ENTITY x 'xx'>]><a>&x;</a>", .documentType),
            ("<a><b><c><d/></c></b></a>", .tooDeep(3)), ("<a><b/><b/><b/><b/></a>", .tooManyElements(4)),
            ("<a>" + String(repeating: " ", count: 64) + "</a>", .tooLarge(64)),
        ]
        for (xml, failure) in cases {
            XCTAssertThrowsError(try read(xml, limits: limits), xml) {
                XCTAssertEqual($0 as? BoundedXML.Failure, failure, xml)
            }
        }
        XCTAssertThrowsError(try BoundedXML(Data([0x3C, 0x61, 0x3E, 0xFF, 0x3C, 0x2F, 0x61, 0x3E]), limits: limits)) {
            XCTAssertEqual($0 as? BoundedXML.Failure, .notWellFormed)
        }
    }

    /// Depth is bounded before recursion could exhaust the stack.
    func testDeepNestingIsRefusedAtTheBound() {
        let deep = String(repeating: "<a>", count: 100_000)
        XCTAssertThrowsError(try read(deep)) { XCTAssertEqual($0 as? BoundedXML.Failure, .tooDeep(8)) }
    }

    func testRootName() {
        XCTAssertEqual(
            BoundedXML.rootName(of: Data("<?xml version='1.0'?>\n<!-- c --><KeePassFile>".utf8)), "KeePassFile")
        XCTAssertEqual(BoundedXML.rootName(of: Data("\u{FEFF}  <map/>".utf8)), "map")
        XCTAssertNil(BoundedXML.rootName(of: Data("<!DOCTYPE html><html>".utf8)))
        XCTAssertNil(BoundedXML.rootName(of: Data("otpauth://totp/x".utf8)))
    }
}
