import AuthCatCore
import AuthCatEssentials
import XCTest

@testable import AuthCatSync

final class RecoveryKeyTests: XCTestCase {
    func testIsShownAsThirteenGroupsOfFourBase32Characters() throws {
        let key = try RecoveryKey.generate()
        let groups = key.formatted.split(separator: "-")
        XCTAssertEqual(groups.count, 13)
        XCTAssertTrue(groups.allSatisfy { $0.count == 4 })
        XCTAssertTrue(
            key.formatted.unicodeScalars.allSatisfy {
                CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567-").contains($0)
            })
    }

    func testReadsBackAsTypedWithSpacesAndLowercase() throws {
        let key = try RecoveryKey.generate()
        let typed = key.formatted.lowercased().replacingOccurrences(of: "-", with: "  ")
        XCTAssertEqual(try RecoveryKey(parsing: SecretBytes(utf8: typed)).bytes, key.bytes)
    }

    func testRefusesKeysOfTheWrongLengthOrAlphabet() {
        let key = try? RecoveryKey.generate().formatted
        for text in [
            "", "ABCD-EFGH", String(repeating: "A", count: 60), String(repeating: "1", count: 52),
            "Á" + (key ?? "").dropFirst(),
        ] {
            XCTAssertThrowsError(try RecoveryKey(parsing: SecretBytes(utf8: text))) { error in
                XCTAssertEqual((error as? SyncError)?.category, .wrongPassphrase)
            }
        }
    }

    func testTwoKeysDiffer() throws {
        XCTAssertNotEqual(try RecoveryKey.generate().formatted, try RecoveryKey.generate().formatted)
    }
}
