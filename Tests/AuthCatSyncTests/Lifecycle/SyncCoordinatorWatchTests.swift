import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import Synchronization
import XCTest

@testable import AuthCatSync

/// `SyncCoordinator.watch`'s decisions, stepped through time: every wait
/// between two checks moves a manual clock on by the poll interval, and what
/// a test plans happens at a given check. Nothing sleeps.
final class SyncCoordinatorWatchTests: XCTestCase {
    var device: SyncTestDevice!
    var start: Date!

    override func setUp() async throws {
        device = try SyncTestDevice("a", in: try makeTemporaryFolder().url, remote: MemoryRemote())
        try await device.enable()
        start = device.clock.now()
    }

    /// The watch's time: each of its waits is one step.
    final class Steps: Sendable {
        let clock: ManualClock
        let stopAfter: Int
        private let taken = Mutex(0)
        private let plans: [Int: @Sendable () async throws -> Void]

        init(clock: ManualClock, stopAfter: Int, plans: [Int: @Sendable () async throws -> Void]) {
            self.clock = clock
            self.stopAfter = stopAfter
            self.plans = plans
        }

        /// Waits so far.
        var count: Int { taken.withLock { $0 } }

        func wait(_ duration: Duration) async {
            let step = taken.withLock { taken in
                taken += 1
                return taken
            }
            clock.advance(
                by: TimeInterval(duration.components.seconds) + TimeInterval(duration.components.attoseconds) / 1e18)
            do {
                try await plans[step]?()
            } catch {
                XCTFail("the step planned for wait \(step) failed: \(error)")
            }
        }

        var isStopped: Bool { count >= stopAfter }
    }

    struct Run {
        /// When each sync ran (seconds since the watch started), with "compact" for a compaction.
        var syncs: [String] = []
        var events: [String] = []
    }

    /// Watches for `steps` checks (0.25 s each), running `plans` after the given step.
    private func watch(
        steps: Int, interval: TimeInterval = 30, plans: [Int: @Sendable () async throws -> Void] = [:],
        sync: (_ compact: Bool) async throws -> SyncReport? = { _ in SyncReport() }
    ) async throws -> Run {
        let clock = device.clock
        let start = start!
        let stepper = Steps(clock: clock, stopAfter: steps, plans: plans)
        let coordinator = SyncCoordinator(
            location: device.vault.location, clock: clock, sleep: { await stepper.wait($0) })
        var run = Run()
        try await coordinator.watch(
            vault: device.vault, interval: interval, isStopped: { stepper.isStopped },
            sync: { compact in
                let at = clock.now().timeIntervalSince(start)
                run.syncs.append(compact ? "\(at) compact" : "\(at)")
                return try await sync(compact)
            },
            report: { event in
                switch event {
                case .started: run.events.append("started")
                case .synced(let report): run.events.append("synced, exported \(report.exportedChanges)")
                case .failed(let error): run.events.append("failed: \((error as? SyncError)?.message ?? "\(error)")")
                case .turnedOff: run.events.append("turned off")
                }
            })
        return run
    }

    /// A change as a command commits it.
    private static func addAccount(_ vault: Vault, _ name: String) throws {
        try vault.write(author: .cli) { writer in
            try writer.insert(
                AccountDraft(
                    issuer: "Example", name: name, otp: OTPParameters(), secret: try Base32.decode("JBSWY3DPEHPK3PXP")))
        }
    }

    func testItSyncsAtOnceAndThenEveryInterval() async throws {
        let run = try await watch(steps: 50, interval: 5)
        XCTAssertEqual(run.syncs, ["0.0", "5.0", "10.0"])
        XCTAssertEqual(run.events, ["started"] + Array(repeating: "synced, exported 0", count: 3))
    }

    func testALocalChangeGoesOutAtTheNextCheck() async throws {
        let vault = device.vault
        let engine = try XCTUnwrap(try device.engine())
        let run = try await watch(steps: 40, interval: 5, plans: [10: { try Self.addAccount(vault, "alice") }]) {
            compact in
            // The real engine, inside the watch's turn of the run lock.
            try await compact ? engine.compact() : engine.sync()
        }
        XCTAssertEqual(
            run.syncs, ["0.0", "2.5", "7.5"], "the change went out at the check after it; the interval starts again")
        XCTAssertEqual(run.events, ["started", "synced, exported 0", "synced, exported 1", "synced, exported 0"])
        XCTAssertEqual(try engine.pendingLocalChanges(), 0)
    }

    func testAChangeCommittedWhileASyncRanGoesOutAtTheNextCheck() async throws {
        let vault = device.vault
        let calls = Counter()
        let run = try await watch(steps: 10) { _ in
            // Committed after the sync read the history: not exported by it.
            if calls.next() == 1 { try Self.addAccount(vault, "alice") }
            return SyncReport()
        }
        XCTAssertEqual(run.syncs, ["0.0", "0.25"])
    }

    func testOnlyItsOwnImportsDoNotCountAsLocalChanges() async throws {
        let other = try SyncTestDevice("b", in: device.home.deletingLastPathComponent(), remote: device.remote)
        try await other.enable()
        try other.add("Mail", "bob")
        try await other.sync()
        let engine = try XCTUnwrap(try device.engine())
        let run = try await watch(steps: 20) { _ in try await engine.sync() }
        XCTAssertEqual(run.syncs, ["0.0"], "what the sync imported is no change to export")
        XCTAssertEqual(try device.labels, ["Mail:bob"])
    }

    func testItCompactsInsteadOnceDueAndIdleForAnInterval() async throws {
        let vault = device.vault
        let due = {
            var report = SyncReport()
            report.batchesSinceSnapshot = SyncReport.compactionThreshold
            return report
        }()
        let compacted = {
            var report = SyncReport()
            report.snapshotWritten = true
            return report
        }()
        let run = try await watch(steps: 60, interval: 5, plans: [8: { try Self.addAccount(vault, "alice") }]) {
            compact in
            compact ? compacted : due
        }
        // Due from the first sync on; the change at 2 s keeps it from compacting until 7 s, an interval later.
        XCTAssertEqual(run.syncs, ["0.0", "2.0", "7.0 compact", "12.0"])
    }

    func testAFailureIsReportedAndTriedAgainAfterTheInterval() async throws {
        let calls = Counter()
        let run = try await watch(steps: 50, interval: 5) { _ in
            guard calls.next() > 2 else { throw SyncError(.unreachable, "the remote is away") }
            return SyncReport()
        }
        XCTAssertEqual(run.syncs, ["0.0", "5.0", "10.0"])
        XCTAssertEqual(
            run.events, ["started", "failed: the remote is away", "failed: the remote is away", "synced, exported 0"])
    }

    func testAVaultMismatchEndsTheWatch() async throws {
        do {
            _ = try await watch(steps: 50) { _ in throw SyncError.vaultMismatch("memory://test") }
            XCTFail("the watch ends with the mismatch")
        } catch let error as SyncError {
            XCTAssertEqual(error.category, .vaultMismatch)
        }
    }

    func testItStopsWhenSyncIsTurnedOff() async throws {
        let engine = try XCTUnwrap(try device.engine())
        let run = try await watch(
            steps: 50, plans: [8: { try await engine.disable(everywhere: false, deleteRemote: false) }])
        XCTAssertEqual(run.syncs, ["0.0"])
        XCTAssertEqual(run.events, ["started", "synced, exported 0", "turned off"])
    }

    func testASyncThatFoundSyncOffIsNoFailure() async throws {
        let run = try await watch(steps: 4) { _ in nil }
        XCTAssertEqual(run.syncs, ["0.0"], "it synced once and found sync off")
        XCTAssertEqual(run.events, ["started"])
    }

    func testItStopsWhenAskedAndNoPushStartsWhileItRuns() async throws {
        let other = SyncCoordinator(location: device.vault.location)
        var seen: [SyncCoordinator.ChangeFollowUp] = []
        let run = try await watch(steps: 0) { _ in
            seen.append(other.afterLocalChange())
            return SyncReport()
        }
        XCTAssertEqual(run.syncs, [], "stopped before its first check")
        XCTAssertEqual(run.events, ["started"])
        let during = try await watch(steps: 1) { _ in
            seen.append(other.afterLocalChange())
            return SyncReport()
        }
        XCTAssertEqual(during.syncs, ["0.0"])
        XCTAssertEqual(seen, [.watchExportsIt])
        XCTAssertEqual(other.afterLocalChange(), .backgroundPush, "the watch released its lock")
    }
}

/// Counts calls from any task.
final class Counter: Sendable {
    private let value = Mutex(0)

    /// The number of this call, from 1.
    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}
