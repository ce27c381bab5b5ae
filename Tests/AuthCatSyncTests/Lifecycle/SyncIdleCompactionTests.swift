import Foundation
import XCTest

@testable import AuthCatSync

/// When `sync watch` compacts.
final class SyncIdleCompactionTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)
    private let policy = SyncCoordinator.IdleCompaction(idleTime: 30)

    func testCompactsOnlyWhenDueAndIdleLongEnough() {
        let due = SyncReport.compactionThreshold
        XCTAssertTrue(policy.shouldCompact(batchesSinceSnapshot: due, lastLocalChange: start, now: start + 30))
        XCTAssertFalse(
            policy.shouldCompact(batchesSinceSnapshot: due, lastLocalChange: start, now: start + 29.9),
            "a local change less than the idle time ago")
        XCTAssertFalse(
            policy.shouldCompact(batchesSinceSnapshot: due - 1, lastLocalChange: start, now: start + 3_600),
            "idle, but not enough batches")
    }

    func testTheThresholdCanBeChosen() {
        let eager = SyncCoordinator.IdleCompaction(idleTime: 0, threshold: 1)
        XCTAssertTrue(eager.shouldCompact(batchesSinceSnapshot: 1, lastLocalChange: start, now: start))
        XCTAssertFalse(eager.shouldCompact(batchesSinceSnapshot: 0, lastLocalChange: start, now: start))
    }
}
