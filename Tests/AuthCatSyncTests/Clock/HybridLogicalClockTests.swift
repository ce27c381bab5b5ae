import XCTest

@testable import AuthCatSync

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
        XCTAssertGreaterThan(
            clock.tick(physical: 1_000, device: "00000000000000aa"), settled, "a change after seeing it")
        XCTAssertNotEqual(replaced.settling(variant: "12"), settled)
        XCTAssertEqual(HybridTimestamp(settled.description), settled)
    }

    func testATickAtTheLogicalBoundCarriesIntoTheWallAndKeepsTheOrder() {
        var clock = HybridLogicalClock(wall: 5_000, logical: HybridLogicalClock.maximumLogical)
        let before = HybridTimestamp(wall: 5_000, logical: HybridLogicalClock.maximumLogical, device: "a")
        let next = clock.tick(physical: 1_000, device: "a")
        XCTAssertEqual(next, HybridTimestamp(wall: 5_001, logical: 0, device: "a"))
        XCTAssertGreaterThan(next, before)
    }

    func testATickOnAPoisonedClockNeverTraps() {
        var clock = HybridLogicalClock(wall: Int64.max, logical: Int64.max)
        let stamp = clock.tick(physical: 1_000, device: "a")
        XCTAssertEqual(stamp.wall, Int64.max)
        var nearlyFull = HybridLogicalClock(wall: Int64.max - 1, logical: Int64.max)
        XCTAssertEqual(
            nearlyFull.tick(physical: 0, device: "a"), HybridTimestamp(wall: Int64.max, logical: 0, device: "a"))
    }

    func testReceivedClocksAreBoundedByADayAheadAndTheLogicalBound() {
        let now: Int64 = 1_700_000_000_000
        let day = HybridLogicalClock.maximumLead
        XCTAssertEqual(day, 86_400_000)
        XCTAssertTrue(
            HybridLogicalClock.isAcceptable(HybridTimestamp(wall: now + day, logical: 0, device: "b"), physicalNow: now)
        )
        XCTAssertFalse(
            HybridLogicalClock.isAcceptable(
                HybridTimestamp(wall: now + day + 1, logical: 0, device: "b"), physicalNow: now))
        XCTAssertFalse(
            HybridLogicalClock.isAcceptable(
                HybridTimestamp(wall: Int64.max, logical: Int64.max, device: "b"), physicalNow: now))
        XCTAssertTrue(
            HybridLogicalClock.isAcceptable(
                HybridTimestamp(wall: now, logical: HybridLogicalClock.maximumLogical, device: "b"), physicalNow: now))
        XCTAssertFalse(
            HybridLogicalClock.isAcceptable(
                HybridTimestamp(wall: now, logical: HybridLogicalClock.maximumLogical + 1, device: "b"),
                physicalNow: now))
        XCTAssertTrue(
            HybridLogicalClock.isAcceptable(HybridTimestamp(wall: 0, logical: 0, device: "b"), physicalNow: Int64.max),
            "the bound itself saturates")
    }

    func testTheTextFormRefusesNumbersThatDoNotFit() {
        XCTAssertNil(HybridTimestamp("99999999999999999999.0.b"), "past Int64")
        XCTAssertNil(HybridTimestamp("-1.0.b"))
        XCTAssertNil(HybridTimestamp("5.-1.b"))
        XCTAssertEqual(
            HybridTimestamp("9223372036854775807.9223372036854775807.b")?.wall, Int64.max,
            "parsed; refused later by the bound")
    }
}
