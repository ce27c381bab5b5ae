import AuthCatEssentials
import Foundation
import XCTest

final class NullWhenAbsentTests: XCTestCase {
    private struct Document: Codable, Equatable {
        var name: String
        @NullWhenAbsent var count: Int?
        @NullWhenAbsent var seen: Date?
    }

    private func object(_ document: Document) throws -> [String: Any] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return try XCTUnwrap(JSONSerialization.jsonObject(with: encoder.encode(document)) as? [String: Any])
    }

    func testAnAbsentValueIsWrittenAsNullAndAPresentOneAsItself() throws {
        let absent = try object(Document(name: "a"))
        XCTAssertEqual(Set(absent.keys), ["name", "count", "seen"])
        XCTAssertTrue(absent["count"] is NSNull)
        XCTAssertTrue(absent["seen"] is NSNull)

        let present = try object(Document(name: "a", count: 3, seen: Date(timeIntervalSince1970: 7)))
        XCTAssertEqual(present["count"] as? Int, 3)
        XCTAssertEqual(present["seen"] as? Int, 7, "the encoder's date strategy still applies")
    }

    func testReadingBackTakesNullAndAMissingKeyAsAbsent() throws {
        let decoder = JSONDecoder()
        XCTAssertEqual(
            try decoder.decode(Document.self, from: Data(#"{"name":"a","count":null}"#.utf8)), Document(name: "a"))
        XCTAssertEqual(try decoder.decode(Document.self, from: Data(#"{"name":"a","count":5}"#.utf8)).count, 5)
    }
}
