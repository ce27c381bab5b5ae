import AuthCatEssentials
import AuthCatSync
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatCommandLine

/// The `sync status` report for people.
final class SyncStatusTextTests: XCTestCase {
    private let time = Date(timeIntervalSince1970: 1_700_000_000)

    private var failing: SyncStatus { .sampleNoNetwork(at: time) }

    func testTextShowsSummaryPhasesAndFacts() {
        let lines = failing.textLines()
        XCTAssertEqual(lines.first, "sync: no network")
        XCTAssertTrue(lines.contains("remote: s3://bucket/vault"))
        XCTAssertTrue(lines.contains("import: failed at \(Timestamp.text(time + 3)): cannot reach s3://bucket"))
        XCTAssertTrue(lines.contains("export: not started"))
        XCTAssertTrue(lines.contains("pending local changes: 2"))
        XCTAssertTrue(lines.contains("batches since snapshot: 3"), "\(lines)")
        XCTAssertTrue(lines.contains("rejected objects: 1 (skipped while they stay the same)"), "\(lines)")
        XCTAssertTrue(
            lines.contains("  authcat-v/d/b-0000000002: rejected since \(Timestamp.text(time)): authentication failed"),
            "\(lines)")
        // The devices as `sync devices` shows them: name, id, first and last seen, this device or revoked.
        XCTAssertTrue(lines.contains { $0.hasPrefix("  NAME ") && $0.contains(" LAST SEEN") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("  laptop ") && $0.hasSuffix("this device") }, "\(lines)")
        XCTAssertTrue(
            lines.contains { $0.hasPrefix("  desktop ") && $0.hasSuffix(Timestamp.text(time)) }, "\(lines)")
        XCTAssertFalse(lines.contains { $0.hasPrefix("remote check:") }, "the probe's message is already the summary's")
    }

    func testTextSaysWhenCompactionIsDue() {
        var status = failing
        status.local.batchesSinceSnapshot = SyncReport.compactionThreshold
        XCTAssertTrue(
            status.textLines().contains(
                "batches since snapshot: \(SyncReport.compactionThreshold) (compaction due)"))
    }

    func testTextForSyncOffIsShort() {
        let status = SyncStatus.fold(events: [], local: .off, probe: nil, now: time)
        XCTAssertEqual(status.textLines(), ["sync: off", "  sync is off"])
        XCTAssertEqual(status.nextStep, .enableSync, "the step is named, for the command line to word")
    }

    func testEachStandingIssueHasALineNamingTheDevice() {
        for kind in [SyncReport.IntegrityIssue.Kind.rollback, .gap, .blocked] {
            let issue = SyncLocalState.StandingIssue(
                kind: kind, subject: "0123456789abcdef", detail: "details", firstSeen: time)
            let devices = [SyncLocalState.DeviceSeen(id: "0123456789abcdef", name: "laptop")]
            let status = SyncStatus.fold(
                events: [],
                local: SyncLocalState(
                    isEnabled: true, standingIssues: [issue],
                    devicesSeen: devices), probe: nil, now: time)
            XCTAssertTrue(
                status.textLines().contains { $0.contains(kind.rawValue) && $0.contains("laptop") }, "\(kind)")
        }
    }

    func testALostStateShowsTheFactsToo() {
        let problem = SyncFailure(category: .other, message: "the sync state file is missing", nextStep: .rejoinSync)
        let status = SyncStatus.fold(
            events: [], local: SyncLocalState(isEnabled: false, stateProblem: problem),
            probe: nil, now: time)
        let lines = status.textLines()
        XCTAssertEqual(lines.prefix(2), ["sync: error", "  the sync state file is missing"])
        XCTAssertTrue(lines.contains("setup: not started"), "\(lines)")
        XCTAssertTrue(lines.contains("last successful sync: never"), "\(lines)")
    }

    func testShortLineNamesTheStateInFortyColumns() {
        XCTAssertEqual(SyncStatus.fold(events: [], local: .off, probe: nil, now: time).shortLine(now: time), "off")
        XCTAssertEqual(failing.shortLine(now: time), "no network")

        var synced = failing
        synced.summary = .succeeded
        XCTAssertEqual(synced.shortLine(now: time + 200), "2 changes waiting")
        synced.local.pendingLocalChanges = 1
        XCTAssertEqual(synced.shortLine(now: time + 200), "1 change waiting")
        synced.local.pendingLocalChanges = 0
        XCTAssertEqual(synced.shortLine(now: time + 200), "synced 3m ago")
        XCTAssertEqual(synced.shortLine(now: time + 3 * 86_400), "synced 3d ago")

        var broken = failing
        broken.summary = .error
        XCTAssertEqual(broken.shortLine(now: time), "error: rejected")
        broken.local.standingIssues = [
            SyncLocalState.StandingIssue(kind: .rollback, subject: "d2", detail: "went back", firstSeen: time)
        ]
        XCTAssertEqual(broken.shortLine(now: time), "error: rollback")
        broken.local.standingIssues = []
        broken.local.rejectedObjects = []
        broken.import.failure = SyncFailure(category: .wrongPassphrase, message: "wrong")
        XCTAssertEqual(broken.shortLine(now: time), "error: wrong passphrase")

        for summary in SyncStatus.Summary.allCases {
            var status = failing
            status.summary = summary
            XCTAssertLessThanOrEqual(status.shortLine(now: time).count, SyncStatus.shortLineWidth, "\(summary)")
        }
    }

    func testShortAgesAreCompact() {
        XCTAssertEqual(SyncStatus.age(from: time, to: time + 59), "59s")
        XCTAssertEqual(SyncStatus.age(from: time, to: time + 60), "1m")
        XCTAssertEqual(SyncStatus.age(from: time, to: time + 7200), "2h")
        XCTAssertEqual(SyncStatus.age(from: time + 10, to: time), "0s", "a clock that went back is not a negative age")
    }
}
