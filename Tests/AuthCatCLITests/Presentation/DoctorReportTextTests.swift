import AuthCatCore
import AuthCatEssentials
import XCTest

@testable import AuthCatCommandLine

/// The `doctor` report for people.
final class DoctorReportTextTests: XCTestCase {
    func testOneAlignedLinePerFindingThenTheCount() {
        let report = DoctorReport(findings: [
            DoctorFinding("a", .ok, "fine"), DoctorFinding("bb", .warning, "hm", advice: "do"),
        ])
        XCTAssertEqual(report.textLines(), ["ok       a   fine", "warning  bb  hm; do", "0 problems, 1 warning"])
        XCTAssertEqual(DoctorReport(findings: [DoctorFinding("a", .ok, "fine")]).textLines().last, "all is well")
    }

    func testANextStepIsWordedIntoTheAdvice() {
        let finding = DoctorFinding(
            "clock", .warning, "not checked", advice: "check the network", next: .nameTimeServer)
        XCTAssertEqual(
            DoctorReport(findings: [finding.advised]).textLines().first,
            "warning  clock  not checked; check the network; \(NextStep.nameTimeServer.advice)")
    }
}
