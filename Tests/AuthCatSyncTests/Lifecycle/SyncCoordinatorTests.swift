import AuthCatCore
import AuthCatEssentials
import AuthCatTestSupport
import AuthCatTesting
import Foundation
import XCTest

@testable import AuthCatSync

/// Who may sync when: the run lock, the background push queue, and what
/// follows a local change. Two coordinators on one vault stand for two
/// processes: each opens the lock files itself, and `flock` on two open file
/// descriptions excludes within one process as it does between processes.
final class SyncCoordinatorTests: XCTestCase {
    var device: SyncTestDevice!
    var location: VaultLocation { device.vault.location }

    override func setUp() async throws {
        device = try SyncTestDevice("a", in: try makeTemporaryFolder().url, remote: MemoryRemote())
    }

    private func coordinator() -> SyncCoordinator {
        SyncCoordinator(location: location, clock: device.clock)
    }

    /// Holds the run lock in a task of its own until `release` fires; returns once it holds it.
    private func holdRunLock(until release: Signal, log: EventLog) async throws -> Task<Void, any Error> {
        let holding = Signal()
        let holder = coordinator()
        let task = Task {
            try await holder.withRunLock {
                log.append("first holds the lock")
                holding.fire()
                try await release.wait("the release of the first holder")
                log.append("first releases it")
            }
        }
        try await holding.wait("the first holder's turn")
        return task
    }

    // MARK: After a local change

    func testALocalChangeStartsAPushOnlyWhenSyncIsOnAndNoWatchRuns() async throws {
        XCTAssertEqual(coordinator().afterLocalChange(), .nothing, "sync was never set up")
        try await device.enable()
        XCTAssertEqual(coordinator().afterLocalChange(), .backgroundPush)

        // What every `sync watch` holds, taken here as another process would.
        let watchLock = open(
            location.folder.appendingPathComponent("sync-watch.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        XCTAssertEqual(flock(watchLock, LOCK_SH), 0)
        XCTAssertTrue(coordinator().isWatched)
        XCTAssertEqual(coordinator().afterLocalChange(), .watchExportsIt)
        close(watchLock)
        XCTAssertFalse(coordinator().isWatched, "the kernel released the lock with the descriptor")
        XCTAssertEqual(coordinator().afterLocalChange(), .backgroundPush)

        try await device.disable()
        XCTAssertEqual(coordinator().afterLocalChange(), .nothing)
    }

    func testAChangeAfterTheSyncStateWasLostStartsNoPushAndWarns() async throws {
        try await device.enable()
        try FileManager.default.removeItem(at: SyncStore.url(in: location))
        XCTAssertEqual(coordinator().afterLocalChange(), .nothing)
        XCTAssertNotNil(SyncNotice.current(in: location), "the next commands warn about the lost state")
    }

    // MARK: The run lock

    func testTwoHoldersOfTheRunLockTakeTurns() async throws {
        let log = EventLog()
        let release = Signal()
        let waiting = Signal()
        let first = try await holdRunLock(until: release, log: log)
        let second = coordinator()
        let secondTask = Task {
            try await second.withRunLock(whenBusy: {
                log.append("second waits")
                waiting.fire()
            }) {
                log.append("second holds the lock")
            }
        }
        try await waiting.wait("the second holder finding the lock busy")
        XCTAssertEqual(log.all, ["first holds the lock", "second waits"])
        release.fire()
        try await first.value("the first holder")
        try await secondTask.value("the second holder's turn")
        XCTAssertEqual(log.all, ["first holds the lock", "second waits", "first releases it", "second holds the lock"])

        var busy = false
        try await coordinator().withRunLock(whenBusy: { busy = true }) {}
        XCTAssertFalse(busy, "a free lock is taken without waiting")
    }

    func testTheEngineRunsInsideItsCallersTurnWithoutTakingTheLockAgain() async throws {
        try await device.enable()
        try device.add("GitHub", "alice")
        let engine = try XCTUnwrap(try device.engine())
        let report = try await coordinator().withRunLock { try await engine.sync() }
        XCTAssertEqual(report.exportedChanges, 1)
    }

    func testTheServiceWaitsForTheRunLockOfAnotherHolder() async throws {
        try await device.enable()
        let log = EventLog()
        let release = Signal()
        let holder = try await holdRunLock(until: release, log: log)
        let (vault, remote, clock, events) = (device.vault, device.remote, device.clock, device.events)
        let sync = Task.detached {
            _ = try await SyncService(vault: vault, remotes: .fixed(remote), clock: clock, recorder: events).now()
            log.append("the service synced")
        }
        // Released only once the service is seen to block, so that the order below proves the wait.
        try await waitUntilSomeoneWaitsForLock(at: SyncCoordinator.RunLock.url(in: location).path)
        XCTAssertEqual(log.all, ["first holds the lock"])
        release.fire()
        try await holder.value("the holder")
        try await sync.value("the service's sync")
        XCTAssertEqual(log.all, ["first holds the lock", "first releases it", "the service synced"])
    }

    func testAFailedSetupRemovesTheLockFile() async throws {
        let file = location.folder.appendingPathComponent("sync-run.lock")
        do {
            try await coordinator().withRunLockForSetup {
                XCTAssertTrue(FileManager.default.fileExists(atPath: file.path))
                throw SyncError(.unreachable, "no remote")
            }
            XCTFail("the failure goes through")
        } catch let error as SyncError {
            XCTAssertEqual(error.category, .unreachable)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "a failed enable leaves no lock file")

        _ = try await coordinator().withRunLockForSetup { try await device.enable() }
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), "a successful one keeps it")
    }

    /// A holder that waited on the file a failed setup removed locks the file
    /// now at that name, so that a third one waits for it rather than taking
    /// the lock of a file nobody else can open.
    func testAWaiterBehindAFailedSetupLocksTheFileAtItsName() async throws {
        let log = EventLog()
        let failSetup = Signal()
        let setupHolds = Signal()
        let secondWaits = Signal()
        let secondHolds = Signal()
        let releaseSecond = Signal()
        let thirdWaits = Signal()
        let setup = coordinator()
        let setupTask = Task {
            try await setup.withRunLockForSetup {
                setupHolds.fire()
                try await failSetup.wait("the setup's failure")
                throw SyncError(.unreachable, "no remote")
            }
        }
        try await setupHolds.wait("the setup's turn")
        let second = coordinator()
        let secondTask = Task {
            try await second.withRunLock(whenBusy: { secondWaits.fire() }) {
                log.append("second holds the lock")
                secondHolds.fire()
                try await releaseSecond.wait("the release of the second holder")
            }
        }
        try await secondWaits.wait("the second holder finding the lock busy")
        failSetup.fire()
        try await secondHolds.wait("the second holder's turn")
        let third = coordinator()
        let thirdTask = Task {
            try await third.withRunLock(whenBusy: {
                log.append("third waits")
                thirdWaits.fire()
            }) {
                log.append("third holds the lock")
            }
        }
        try await thirdWaits.wait("the third holder finding the lock busy")
        releaseSecond.fire()
        try await secondTask.value("the second holder")
        try await thirdTask.value("the third holder's turn")
        XCTAssertEqual(log.all, ["second holds the lock", "third waits", "third holds the lock"])
        let failed: Void? = try? await setupTask.value("the failed setup")
        XCTAssertNil(failed, "the setup failed")
    }

    // MARK: The background push queue

    func testAtMostOnePushRunsAndOneWaits() async throws {
        try await device.enable()
        let log = EventLog()
        let release = Signal()
        let queued = Signal()
        let holder = try await holdRunLock(until: release, log: log)
        let waiting = coordinator()
        let waitingPush = Task {
            try await waiting.runQueuedPush(whileWaiting: { queued.fire() }) { log.append("the waiting push ran") }
        }
        try await queued.wait("the push that queues")
        let ran = try await coordinator().runQueuedPush { log.append("a third push ran") }
        XCTAssertFalse(ran, "a push that finds one waiting stops at once: that one exports its change too")
        release.fire()
        try await holder.value("the holder")
        let waitingRan = try await waitingPush.value("the waiting push")
        XCTAssertTrue(waitingRan)
        XCTAssertEqual(log.all, ["first holds the lock", "first releases it", "the waiting push ran"])

        let later = try await coordinator().runQueuedPush { log.append("a later push ran") }
        XCTAssertTrue(later, "the queue is free again")
    }

    /// Once a push holds the run lock it leaves the queue, so a change
    /// committed while it runs gets a push of its own.
    func testARunningPushLeavesTheQueueToTheNext() async throws {
        try await device.enable()
        let log = EventLog()
        let nextQueued = Signal()
        let next = coordinator()
        var nextPush: Task<Bool, any Error>?
        let first = try await coordinator().runQueuedPush {
            log.append("the first push runs")
            // Detached, as another process: it does not share this push's turn.
            nextPush = Task.detached {
                try await next.runQueuedPush(whileWaiting: {
                    log.append("the next push waits")
                    nextQueued.fire()
                }) {
                    log.append("the next push runs")
                }
            }
            // A push's body cannot throw; the wait throws only when cancelled, and the order below shows that too.
            try? await nextQueued.wait("the next push queueing")
            log.append("the first push ends")
        }
        XCTAssertTrue(first)
        let nextRan = try await nextPush?.value("the next push")
        XCTAssertEqual(nextRan, true)
        XCTAssertEqual(
            log.all, ["the first push runs", "the next push waits", "the first push ends", "the next push runs"])
    }

    /// A task started during a turn does not share it: nothing takes the
    /// lock twice, so it takes the lock of its own, once the turn is over.
    func testATaskStartedDuringATurnTakesTheLockOfItsOwn() async throws {
        let log = EventLog()
        let lateWaits = Signal()
        let holder = coordinator()
        var late: Task<Void, any Error>?
        try await holder.withRunLock {
            late = Task {
                try await holder.withRunLock(whenBusy: { lateWaits.fire() }) {
                    log.append("the late task holds the lock")
                }
            }
            try await lateWaits.wait("the late task finding the lock busy")
            log.append("the turn ends")
        }
        try await late?.value("the late task")
        XCTAssertEqual(log.all, ["the turn ends", "the late task holds the lock"])
    }

    func testNoPushRunsWhileSyncIsOff() async throws {
        let ran = try await coordinator().runQueuedPush { XCTFail("no push while sync is off") }
        XCTAssertFalse(ran)
    }

    /// A push that cannot use its lock files did not run; it says so, and the
    /// command line records it for `sync status`.
    func testAPushThatCannotOpenALockFileThrows() async throws {
        try await device.enable()
        for name in ["sync-queue.lock", SyncCoordinator.RunLock.fileName] {
            let file = location.folder.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: file)
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
            do {
                try await coordinator().runQueuedPush { XCTFail("no push without its lock (\(name))") }
                XCTFail("a lock file that cannot be opened is an error (\(name))")
            } catch let error as SecureFileError {
                XCTAssertTrue("\(error)".contains(name), "\(error)")
            }
            try FileManager.default.removeItem(at: file)
        }
    }
}
