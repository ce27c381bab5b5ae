import XCTest

@testable import AuthCatSync

/// The folding of events, local state and probe into a status: every summary state, with an injected clock.
final class SyncStatusTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)
    private let alivePID: Int32 = 100
    private let deadPID: Int32 = 200
    private let on = SyncLocalState(isEnabled: true, remoteLocation: "file:///tmp/remote")

    private var policy: SyncStatus.Policy {
        let alive = alivePID
        return SyncStatus.Policy(staleAfter: 600, isProcessAlive: { $0 == alive })
    }

    private func event(
        _ phase: SyncEvent.Phase, _ kind: SyncEvent.Kind, at offset: TimeInterval,
        _ failure: SyncFailure? = nil, pid: Int32? = nil
    ) -> SyncEvent {
        SyncEvent(phase: phase, kind: kind, time: start + offset, failure: failure, processID: pid ?? deadPID)
    }

    /// Setup, import and export that all succeeded, starting at `offset`.
    private func successfulSync(at offset: TimeInterval) -> [SyncEvent] {
        [
            event(.setup, .started, at: offset), event(.setup, .succeeded, at: offset + 1),
            event(.import, .started, at: offset + 2), event(.import, .succeeded, at: offset + 3),
            event(.export, .started, at: offset + 4), event(.export, .succeeded, at: offset + 5),
        ]
    }

    private func fold(
        _ events: [SyncEvent], local: SyncLocalState? = nil, probe: SyncProbeResult? = nil,
        at offset: TimeInterval = 100
    ) -> SyncStatus {
        SyncStatus.fold(events: events, local: local ?? on, probe: probe, now: start + offset, policy: policy)
    }

    private func failure(_ category: SyncFailure.Category) -> SyncFailure {
        SyncFailure(category: category, message: "\(category.rawValue) happened")
    }

    func testOffWhenSyncIsNotEnabled() {
        let status = fold(successfulSync(at: 0), local: .off)
        XCTAssertEqual(status.summary, .off)
        XCTAssertEqual(status.summary.exitCode, 0)
        XCTAssertEqual(status.setup.state, .succeeded)
    }

    func testOffAfterDisabledEverywhereSaysSo() {
        let local = SyncLocalState(isEnabled: false, disabledEverywhere: true)
        let status = fold([], local: local)
        XCTAssertEqual(status.summary, .off)
        XCTAssertTrue(status.message?.contains("another device") ?? false)
    }

    func testNotStartedWhenEnabledWithNothingRecorded() {
        let status = fold([])
        XCTAssertEqual(status.summary, .notStarted)
        XCTAssertEqual(status.summary.exitCode, 2)
        XCTAssertEqual(
            [status.setup.state, status.import.state, status.export.state], [.notStarted, .notStarted, .notStarted])
    }

    func testSucceeded() {
        let status = fold(successfulSync(at: 0))
        XCTAssertEqual(status.summary, .succeeded)
        XCTAssertEqual(status.summary.exitCode, 0)
        XCTAssertEqual(status.import, SyncStatus.PhaseState(state: .succeeded, started: start + 2, ended: start + 3))
        XCTAssertEqual(status.lastSuccessfulSync, start + 5)
        XCTAssertNil(status.message)
    }

    func testEngineLastSuccessfulSyncWinsOverEvents() {
        var local = on
        local.lastSuccessfulSync = start + 42
        XCTAssertEqual(fold(successfulSync(at: 0), local: local).lastSuccessfulSync, start + 42)
    }

    func testNotSyncingWhenSetUpButNothingImportedSince() {
        let events = successfulSync(at: 0) + [event(.setup, .started, at: 10), event(.setup, .succeeded, at: 11)]
        let status = fold(events)
        XCTAssertEqual(status.summary, .notSyncing)
        XCTAssertEqual(status.summary.exitCode, 3)
        XCTAssertEqual(status.import.state, .notStarted, "imports before the latest setup do not count")
    }

    func testInProgressWhileTheSyncingProcessIsAlive() {
        let events = successfulSync(at: 0) + [event(.import, .started, at: 50, pid: alivePID)]
        let status = fold(events)
        XCTAssertEqual(status.summary, .inProgress)
        XCTAssertEqual(status.summary.exitCode, 0)
        XCTAssertEqual(status.import, SyncStatus.PhaseState(state: .inProgress, started: start + 50))
    }

    func testSetupInProgressShowsBeforeSyncIsEnabled() {
        let status = fold([event(.setup, .started, at: 50, pid: alivePID)], local: .off)
        XCTAssertEqual(status.summary, .inProgress)
    }

    func testStartOfADeadProcessIsInterruptedNotInProgress() {
        let events = successfulSync(at: 0) + [event(.export, .started, at: 50, pid: deadPID)]
        let status = fold(events)
        XCTAssertEqual(status.export.state, .interrupted)
        XCTAssertEqual(status.summary, .error)
        XCTAssertTrue(status.message?.contains("interrupted") ?? false)
    }

    /// A join stopped by Ctrl-C leaves sync off: the status says so, and its
    /// advice (here and in the setup's own line) is to set sync up again,
    /// never a `sync now` that would answer that sync is off (issue 33 §7).
    func testAnInterruptedSetupLeavesSyncOffWithAdviceToSetItUpAgain() {
        let status = fold([event(.setup, .started, at: 50)], local: .off)
        XCTAssertEqual(status.summary, .off)
        XCTAssertEqual(status.setup.state, .interrupted)
        XCTAssertEqual(status.message, "sync is off: its setup was interrupted before it finished")
        XCTAssertEqual(status.nextStep, .enableSync)
        XCTAssertEqual(status.setup.failure?.nextStep, .enableSync)
        let stoppedSync = fold(successfulSync(at: 0) + [event(.import, .started, at: 50)])
        XCTAssertEqual(stoppedSync.import.failure?.nextStep, .syncNow, "with sync on, syncing again goes on")
    }

    func testStartOlderThanTheStaleBoundIsInterruptedEvenIfThePIDIsAlive() {
        let events = successfulSync(at: 0) + [event(.import, .started, at: 50, pid: alivePID)]
        let status = fold(events, at: 50 + 601)
        XCTAssertEqual(status.import.state, .interrupted)
        XCTAssertEqual(status.summary, .error)
    }

    func testInterruptedRunIsForgottenOnceALaterRunEnds() {
        let events =
            successfulSync(at: 0) + [
                event(.import, .started, at: 50, pid: deadPID),
                event(.import, .started, at: 60, pid: 300), event(.import, .succeeded, at: 61, pid: 300),
                event(.export, .started, at: 62, pid: 300), event(.export, .succeeded, at: 63, pid: 300),
            ]
        XCTAssertEqual(fold(events).summary, .succeeded)
    }

    func testRunsOfTwoProcessesAreMatchedByProcessID() {
        let events =
            successfulSync(at: 0) + [
                event(.export, .started, at: 50, pid: alivePID),
                event(.export, .started, at: 51, pid: 300), event(.export, .succeeded, at: 52, pid: 300),
            ]
        XCTAssertEqual(fold(events).export.state, .inProgress)
    }

    func testErrorForAnIntegrityFailure() {
        let events =
            successfulSync(at: 0) + [
                event(.import, .started, at: 10), event(.import, .failed, at: 11, failure(.integrity)),
            ]
        let status = fold(events)
        XCTAssertEqual(status.summary, .error)
        XCTAssertEqual(status.summary.exitCode, 4)
        XCTAssertEqual(status.message, "integrity happened")
        XCTAssertEqual(status.import.failure, failure(.integrity))
    }

    func testNoNetworkFromTheLastFailure() {
        let events =
            successfulSync(at: 0) + [
                event(.import, .started, at: 10), event(.import, .failed, at: 11, failure(.unreachable)),
            ]
        let status = fold(events)
        XCTAssertEqual(status.summary, .noNetwork)
        XCTAssertEqual(status.summary.exitCode, 5)
    }

    func testNoNetworkFromTheProbeEvenAfterASuccess() {
        let status = fold(successfulSync(at: 0), probe: .failed(failure(.unreachable)))
        XCTAssertEqual(status.summary, .noNetwork)
        XCTAssertEqual(status.message, "unreachable happened")
    }

    func testAccountNotAvailableForRejectedCredentialsOrMissingContainer() {
        for category in [SyncFailure.Category.credentialsRejected, .containerMissing] {
            let status = fold(successfulSync(at: 0), probe: .failed(failure(category)))
            XCTAssertEqual(status.summary, .accountNotAvailable, "\(category)")
            XCTAssertEqual(status.summary.exitCode, 6)
        }
        let events =
            successfulSync(at: 0) + [
                event(.export, .started, at: 10), event(.export, .failed, at: 11, failure(.credentialsRejected)),
            ]
        XCTAssertEqual(fold(events).summary, .accountNotAvailable)
    }

    func testAConnectivityFailureIsAnErrorOnceTheProbeReachesTheRemote() {
        let events =
            successfulSync(at: 0) + [
                event(.import, .started, at: 10), event(.import, .failed, at: 11, failure(.unreachable)),
            ]
        let status = fold(events, probe: .reachable)
        XCTAssertEqual(status.summary, .error)
        XCTAssertTrue(status.message?.contains("answers now") ?? false)
    }

    func testRemoteDeletedFromTheFlagEvenWhenSyncIsOff() {
        let local = SyncLocalState(isEnabled: false, remoteDeleted: true)
        let status = fold(successfulSync(at: 0), local: local)
        XCTAssertEqual(status.summary, .remoteDeleted)
        XCTAssertEqual(status.summary.exitCode, 7)
    }

    func testRemoteDeletedFromTheLastFailure() {
        let events =
            successfulSync(at: 0) + [
                event(.import, .started, at: 10), event(.import, .failed, at: 11, failure(.remoteDeleted)),
            ]
        XCTAssertEqual(fold(events).summary, .remoteDeleted)
    }

    func testRevokedFromTheFlagOrTheLastFailureWithExitStatusNine() {
        var local = SyncLocalState(isEnabled: false)
        local.revoked = true
        XCTAssertEqual(fold(successfulSync(at: 0), local: local).summary, .revoked)
        XCTAssertEqual(SyncStatus.Summary.revoked.exitCode, 9)
        let events =
            successfulSync(at: 0) + [
                event(.import, .started, at: 10), event(.import, .failed, at: 11, failure(.revoked)),
            ]
        XCTAssertEqual(fold(events, local: on).summary, .revoked)
    }

    func testVaultMismatchFromTheFlagOrTheLastFailure() {
        var local = on
        local.vaultMismatch = true
        XCTAssertEqual(fold(successfulSync(at: 0), local: local).summary, .vaultMismatch)
        XCTAssertEqual(SyncStatus.Summary.vaultMismatch.exitCode, 8)
        let events =
            successfulSync(at: 0) + [
                event(.import, .started, at: 10), event(.import, .failed, at: 11, failure(.vaultMismatch)),
            ]
        XCTAssertEqual(fold(events).summary, .vaultMismatch)
    }

    func testASuccessAfterAFailureClearsTheError() {
        let events =
            successfulSync(at: 0) + [
                event(.import, .started, at: 10), event(.import, .failed, at: 11, failure(.unreachable)),
                event(.import, .started, at: 20), event(.import, .succeeded, at: 21),
                event(.export, .started, at: 22), event(.export, .succeeded, at: 23),
            ]
        XCTAssertEqual(fold(events).summary, .succeeded)
    }

    func testTheNewestFailureDecides() {
        let events =
            successfulSync(at: 0) + [
                event(.export, .started, at: 10), event(.export, .failed, at: 11, failure(.integrity)),
                event(.import, .started, at: 20), event(.import, .failed, at: 21, failure(.unreachable)),
            ]
        XCTAssertEqual(fold(events).summary, .noNetwork)
    }

    func testEventsAreFoldedInTimeOrderWhateverTheirFileOrder() {
        let status = fold(successfulSync(at: 0).reversed())
        XCTAssertEqual(status.summary, .succeeded)
    }

    func testFailureWithoutAReasonIsStillAnError() {
        let events = successfulSync(at: 0) + [event(.export, .started, at: 10), event(.export, .failed, at: 11)]
        let status = fold(events)
        XCTAssertEqual(status.summary, .error)
        XCTAssertEqual(status.export.failure?.category, .other)
    }

    func testEveryExitCodeIsDistinctExceptTheHealthyStates() {
        let unhealthy = SyncStatus.Summary.allCases.filter { !$0.isHealthy }
        XCTAssertEqual(Set(unhealthy.map(\.exitCode)).count, unhealthy.count)
        XCTAssertEqual(Set(SyncStatus.Summary.allCases.filter(\.isHealthy)), [.off, .succeeded, .inProgress])
        XCTAssertFalse(unhealthy.map(\.exitCode).contains(1), "1 is kept for errors of the command itself")
    }

    func testProcessLivenessSeesThisProcessAndNotABogusOne() {
        XCTAssertTrue(SyncStatus.ProcessLiveness.isAlive(getpid()))
        XCTAssertFalse(SyncStatus.ProcessLiveness.isAlive(0))
        XCTAssertFalse(SyncStatus.ProcessLiveness.isAlive(Int32.max))
    }
}

/// Problems that stand until repaired are never folded into `succeeded` (issue 8 §3, §4).
final class SyncStatusStandingProblemTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_700_000_100)
    private let succeeded: [SyncEvent] = [.import, .export].flatMap { phase in
        [
            SyncEvent(phase: phase, kind: .started, time: Date(timeIntervalSince1970: 1_700_000_000), processID: 1),
            SyncEvent(phase: phase, kind: .succeeded, time: Date(timeIntervalSince1970: 1_700_000_001), processID: 1),
        ]
    }
    private let policy = SyncStatus.Policy(staleAfter: 600, isProcessAlive: { $0 == 2 })

    private func fold(_ local: SyncLocalState, events: [SyncEvent]? = nil) -> SyncStatus {
        SyncStatus.fold(events: events ?? succeeded, local: local, probe: .reachable, now: now, policy: policy)
    }

    func testARejectedObjectIsAnErrorNotSucceeded() {
        let object = SyncLocalState.RejectedObject(
            name: "authcat-v/d/b-0000000002", kind: .rejected, detail: "bad", firstSeen: now)
        let status = fold(SyncLocalState(isEnabled: true, rejectedObjects: [object]))
        XCTAssertEqual(status.summary, .error)
        XCTAssertEqual(status.summary.exitCode, 4, "the README's table: a rejected object is error, 4")
    }

    func testEachStandingIssueIsAnErrorNamingTheDevice() {
        for kind in [SyncReport.IntegrityIssue.Kind.rollback, .gap, .blocked] {
            let issue = SyncLocalState.StandingIssue(
                kind: kind, subject: "0123456789abcdef", detail: "details", firstSeen: now)
            let devices = [SyncLocalState.DeviceSeen(id: "0123456789abcdef", name: "laptop")]
            let status = fold(SyncLocalState(isEnabled: true, standingIssues: [issue], devicesSeen: devices))
            XCTAssertEqual(status.summary, .error, "\(kind)")
            XCTAssertTrue(status.message?.contains("laptop (0123456789abcdef)") ?? false, status.message ?? "")
        }
    }

    func testAProblemIsShownEvenWhileASyncRuns() {
        let running = succeeded + [SyncEvent(phase: .import, kind: .started, time: now, processID: 2)]
        let issue = SyncLocalState.StandingIssue(kind: .gap, subject: "0123456789abcdef", detail: "d", firstSeen: now)
        XCTAssertEqual(fold(SyncLocalState(isEnabled: true, standingIssues: [issue]), events: running).summary, .error)
        XCTAssertEqual(fold(SyncLocalState(isEnabled: true), events: running).summary, .inProgress)
    }

    func testLostStateIsAnErrorNeverOff() {
        let problem = SyncFailure(category: .other, message: "the sync state file is missing", nextStep: .rejoinSync)
        let status = fold(SyncLocalState(isEnabled: false, stateProblem: problem))
        XCTAssertEqual(status.summary, .error)
        XCTAssertEqual(status.message, "the sync state file is missing")
        XCTAssertEqual(status.nextStep, .rejoinSync)
    }
}
