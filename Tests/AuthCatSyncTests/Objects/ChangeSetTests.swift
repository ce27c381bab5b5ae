import Foundation
import XCTest

@testable import AuthCatSync

/// The batch payload's `joined_at` (docs/FORMAT.md §5.4): written when
/// known, left out otherwise, and only shown, so a value that makes no sense
/// is read as unknown rather than costing the object.
final class ChangeSetTests: XCTestCase {
    private func payload(joinedAt: String?) -> Data {
        let member = joinedAt.map { #""joined_at": \#($0), "# } ?? ""
        return Data(
            #"""
            {"format": "authcat-sync-batch", "version": 1, "vault": "v", "device": "d", "device_name": "n",
             "vault_device": "x", "sequence": 1, "previous": "", "created_at": 5000, \#(member)
             "accounts": [], "preferences": []}
            """#.utf8)
    }

    private func decoded(_ joinedAt: String?) throws -> ChangeSet {
        try ChangeSet.decode(payload(joinedAt: joinedAt), snapshot: false, vault: "v", device: "d", sequence: 1)
    }

    func testTheJoinTimeIsReadWhenItMakesSenseAndIgnoredOtherwise() throws {
        XCTAssertEqual(try decoded("4000").joinedAt, 4000)
        XCTAssertEqual(try decoded("5000").joinedAt, 5000)
        XCTAssertNil(try decoded(nil).joinedAt, "an authcat from before")
        XCTAssertNil(try decoded("5001").joinedAt, "after the object was made")
        XCTAssertNil(try decoded("0").joinedAt)
        XCTAssertNil(try decoded("-7").joinedAt)
        XCTAssertNil(try decoded(#""yesterday""#).joinedAt, "not a number: unknown, the object kept")
    }

    func testTheJoinTimeIsWrittenOnlyWhenKnown() throws {
        var set = try decoded(nil)
        XCTAssertFalse(String(decoding: try set.encoded(), as: UTF8.self).contains("joined_at"))
        set.joinedAt = 4000
        XCTAssertTrue(String(decoding: try set.encoded(), as: UTF8.self).contains(#""joined_at":4000"#))
        XCTAssertEqual(
            try ChangeSet.decode(try set.encoded(), snapshot: false, vault: "v", device: "d", sequence: 1), set)
    }
}
