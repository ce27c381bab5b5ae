import AuthCatEssentials
import AuthCatSync
import Foundation
import XCTest

@testable import AuthCatCommandLine

/// The libraries name next steps; the command line words them.
final class NextStepAdviceTests: AuthCatTestCase {
    func testEveryStepIsWordedAsACommandOrAnOption() {
        for step in NextStep.allCases {
            XCTAssertTrue(step.advice.contains("authcat ") || step.advice.contains(" --"), "\(step): \(step.advice)")
            XCTAssertFalse(step.advice.hasSuffix("."), "advice ends a one-line message: \(step)")
        }
    }

    func testAnErrorReadsWithItsStep() throws {
        let result = try authcat.run(["code", "github"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasSuffix("; add one with 'authcat add' or 'authcat import'\n"), result.stderr)
    }

    func testTheStatusWordsEveryStepItCarries() {
        let failure = SyncFailure(category: .other, message: "the export was interrupted", nextStep: .syncNow)
        var status = SyncStatus(
            summary: .error, message: "sync has a problem", nextStep: .rejoinSync,
            export: SyncStatus.PhaseState(state: .failed, failure: failure), local: .off,
            probe: .failed(failure))
        status.local.stateProblem = failure
        let advised = status.advised
        XCTAssertEqual(advised.message, "sync has a problem; \(NextStep.rejoinSync.advice)")
        XCTAssertNil(advised.nextStep)
        let worded = "the export was interrupted; run: authcat sync now"
        XCTAssertEqual(advised.export.failure?.message, worded)
        XCTAssertEqual(advised.local.stateProblem?.message, worded)
        XCTAssertEqual(advised.probe, .failed(SyncFailure(category: .other, message: worded)))
    }

    func testAStepWithoutAMessageBecomesTheMessage() {
        let status = SyncStatus(summary: .succeeded, nextStep: .compact, local: .off)
        XCTAssertEqual(status.advised.message, "run: authcat sync compact")
    }
}
