import AuthCatEssentials
import Foundation
import XCTest

final class UUIDVaultStringTests: XCTestCase {
    func testRoundTripsInLowercaseAndReadsUppercase() throws {
        for _ in 0..<100 {
            let id = UUID()
            XCTAssertEqual(id.vaultString, id.uuidString.lowercased())
            XCTAssertEqual(UUID(vaultString: id.vaultString), id)
            XCTAssertEqual(UUID(vaultString: id.uuidString), id)
        }
    }

    func testRejectsAnythingButTheDashedForm() {
        let text = "0f8fad5b-d9cb-469f-a165-70867728950e"
        XCTAssertNotNil(UUID(vaultString: text))
        for bad in [
            "", String(text.dropLast()), text + "0", text.replacingOccurrences(of: "-", with: ""),
            "0f8fad5bd-9cb-469f-a165-70867728950e", "0f8fad5b-d9cb-469f-a165-70867728950g",
        ] {
            XCTAssertNil(UUID(vaultString: bad), bad)
        }
    }
}
