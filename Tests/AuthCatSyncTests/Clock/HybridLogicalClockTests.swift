@testable import AuthCatSync
import XCTest

final class HybridLogicalClockTests: XCTestCase {
    func testTicksFollowWallTimeAndNeverGoBack() {
        var clock = HybridLogicalClock.zero
        let first = clock.tick(physical: 1_000, device: "a")
        let sameMillisecond = clock.tick(physical: 1_000, device: "a")
        let clockWentBack = clock.tick(physical: 500, device: "a")
        let later = clock.tick(physical: 2_000, device: "a")
        XCTAssertEqual(first, HybridTimestamp(wall: 1_000, logical: 0, device: "a"))
        XCTAssertLessThan(first, sameMillisecond)
        XCTAssertLessThan(sameMillisecond, clockWentBack)
        XCTAssertLessThan(clockWentBack, later)
        XCTAssertEqual(later, HybridTimestamp(wall: 2_000, logical: 0, device: "a"))
    }

    func testAChangeAfterReceivingIsOrderedAfterWhatWasReceived() {
        var clock = HybridLogicalClock.zero
        let received = HybridTimestamp(wall: 9_000, logical: 4, device: "b")
        clock.receive(received)
        XCTAssertGreaterThan(clock.tick(physical: 1_000, device: "a"), received, "even with a slow local clock")
    }

    func testTheDeviceBreaksTiesAndTheTextFormRoundTrips() {
        let a = HybridTimestamp(wall: 5, logical: 1, device: "a")
        let b = HybridTimestamp(wall: 5, logical: 1, device: "b")
        XCTAssertLessThan(a, b)
        XCTAssertEqual(HybridTimestamp(b.description), b)
        XCTAssertNil(HybridTimestamp("5.x.b"))
        XCTAssertNil(HybridTimestamp("5.1"))
    }

    func testASettlingStampSortsRightAfterWhatItReplacesAndBeforeAnyLaterChange() {
        let replaced = HybridTimestamp(wall: 5_000, logical: 2, device: "00000000000000aa")
        let settled = replaced.settling()
        XCTAssertEqual(settled, replaced.settling(), "the same on every device")
        XCTAssertGreaterThan(settled, replaced)
        XCTAssertLessThan(settled, HybridTimestamp(wall: 5_000, logical: 2, device: "00000000000000ab"))
        XCTAssertLessThan(settled, HybridTimestamp(wall: 5_000, logical: 3, device: "00000000000000aa"))
        var clock = HybridLogicalClock.zero
        clock.receive(replaced)
        XCTAssertGreaterThan(clock.tick(physical: 1_000, device: "00000000000000aa"), settled, "a change after seeing it")
        XCTAssertNotEqual(replaced.settling(variant: "12"), settled)
        XCTAssertEqual(HybridTimestamp(settled.description), settled)
    }
}
