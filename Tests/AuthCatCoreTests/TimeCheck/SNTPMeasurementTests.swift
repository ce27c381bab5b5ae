import AuthCatCore
import AuthCatEssentials
import XCTest

final class SNTPMeasurementTests: XCTestCase {
    func testOffsetAndDelayFollowRFC5905() {
        let base = Date(timeIntervalSince1970: 1_000)
        let measurement = SNTPMeasurement(
            sent: base, serverReceived: base + 300.1, serverSent: base + 300.2,
            received: base + 0.3, stratum: 1, address: "x")
        XCTAssertEqual(measurement.offset, 300, accuracy: 1e-6)
        XCTAssertEqual(measurement.delay, 0.2, accuracy: 1e-6)
    }
}
