import AuthCatEssentials
import AuthCatSync
import Foundation
import XCTest

@testable import AuthCatCommandLine

/// `sync devices` for people (issue 32 §A): every name beside its short id
/// and when it joined, what would not show written out, and a name too
/// like another's marked, so that no device passes for another.
final class DeviceTableTests: XCTestCase {
    private let joined = Date(timeIntervalSince1970: 1_700_000_000)

    func testEachNameShowsBesideItsShortIDAndJoinTime() throws {
        let lines = DeviceTable.lines([
            DeviceDirectory.Device(
                id: "3d7352bf6db19a6e", name: "laptop", lastSeen: joined + 60, isThisDevice: true, joinedAt: joined),
            DeviceDirectory.Device(id: "aa00bb11cc22dd33", name: nil),
        ])
        XCTAssertEqual(lines.count, 3, "\(lines)")
        XCTAssertTrue(lines[0].hasPrefix("NAME ") && lines[0].contains(" ID ") && lines[0].contains(" JOINED "))
        let laptop = try XCTUnwrap(lines.first { $0.hasPrefix("laptop ") })
        XCTAssertTrue(laptop.contains(" 3d7352bf ") && !laptop.contains("3d7352bf6db19a6e"), laptop)
        XCTAssertTrue(laptop.contains(Timestamp.text(joined)), laptop)
        XCTAssertTrue(laptop.hasSuffix("this device"), laptop)
        let unnamed = try XCTUnwrap(lines.first { $0.hasPrefix(DeviceDirectory.Device.unnamed) })
        XCTAssertTrue(unnamed.contains(" aa00bb11 "), unnamed)
    }

    func testANameThatHidesOrLooksLikeAnothersIsShownForWhatItIs() throws {
        let lines = DeviceTable.lines([
            DeviceDirectory.Device(id: "1111111111111111", name: "laptop"),
            DeviceDirectory.Device(id: "2222222222222222", name: "laptop\u{3164}"),
            DeviceDirectory.Device(id: "3333333333333333", name: "l\u{0430}ptop"),
            DeviceDirectory.Device(id: "4444444444444444", name: "desk"),
        ])
        let hidden = try XCTUnwrap(lines.first { $0.contains("22222222") })
        XCTAssertTrue(hidden.hasPrefix("laptop<U+3164> "), hidden)
        for id in ["11111111", "22222222", "33333333"] {
            let line = try XCTUnwrap(lines.first { $0.contains(id) })
            XCTAssertTrue(line.hasSuffix("name like another's"), line)
        }
        XCTAssertFalse(try XCTUnwrap(lines.first { $0.contains("44444444") }).contains("like another's"))
    }
}
