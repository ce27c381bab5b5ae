import AuthCatCore
import AuthCatEssentials
import XCTest

final class NTPTimestampTests: XCTestCase {
    func testTimestampsRoundTripNearTheReference() {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let stamp = NTPTimestamp.make(date)
        XCTAssertEqual(stamp >> 32, UInt64(1_700_000_000 + 2_208_988_800))
        XCTAssertEqual(NTPTimestamp.date(stamp, near: date).timeIntervalSince1970, 1_700_000_000.25, accuracy: 1e-6)
    }

    func testTimestampsAfter2036WrapIntoTheNextEra() {
        // 2040: past the end of NTP era 0 (2036-02-07).
        let date = Date(timeIntervalSince1970: 2_208_988_800)
        let stamp = NTPTimestamp.make(date)
        // 4,417,977,600 NTP seconds, less one era of 2^32.
        XCTAssertEqual(stamp >> 32, UInt64(2_208_988_800 + 2_208_988_800) - (1 << 32))
        XCTAssertEqual(NTPTimestamp.date(stamp, near: date).timeIntervalSince1970, 2_208_988_800, accuracy: 1e-6)
    }
}
