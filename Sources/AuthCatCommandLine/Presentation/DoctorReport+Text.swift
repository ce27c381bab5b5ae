import AuthCatCore
import AuthCatEssentials
import Foundation

/// The `doctor` report for people: one aligned line per finding, then a count.
extension DoctorReport {
    /// One line per finding (status, check, message, then what to do), and a last line counting them.
    func textLines() -> [String] {
        let checkWidth = findings.map(\.check.count).max() ?? 0
        var lines = findings.map { finding in
            let status = finding.status.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
            let check = finding.check.padding(toLength: checkWidth, withPad: " ", startingAt: 0)
            let advice = finding.advice.map { "; \($0)" } ?? ""
            return TerminalText.sanitized("\(status)  \(check)  \(finding.message)\(advice)")
        }
        func count(_ number: Int, _ word: String) -> String { "\(number) \(word)\(number == 1 ? "" : "s")" }
        lines.append(
            problems == 0 && warnings == 0
                ? "all is well"
                : "\(count(problems, "problem")), \(count(warnings, "warning"))")
        return lines
    }
}
