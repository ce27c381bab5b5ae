import AuthCatEssentials
import Foundation

/// Everything `authcat doctor` found, as lines for a person or JSON for a script.
public struct DoctorReport: Encodable, Sendable {
    public var findings: [DoctorFinding]
    /// The clock check's measurement, when a server answered.
    public var clock: ClockMeasurement?

    public struct ClockMeasurement: Encodable, Equatable, Sendable {
        public var server: String
        public var address: String
        public var offsetSeconds: Double
        public var delaySeconds: Double
        public var stratum: Int

        public init(server: SNTPServer, _ measurement: SNTPMeasurement) {
            self.server = server.description
            address = measurement.address
            offsetSeconds = (measurement.offset * 1000).rounded() / 1000
            delaySeconds = (measurement.delay * 1000).rounded() / 1000
            stratum = measurement.stratum
        }

        enum CodingKeys: String, CodingKey {
            case server, address, stratum
            case offsetSeconds = "offset_seconds"
            case delaySeconds = "delay_seconds"
        }
    }

    public init(findings: [DoctorFinding], clock: ClockMeasurement? = nil) {
        self.findings = findings
        self.clock = clock
    }

    public var problems: Int { findings.filter { $0.status == .problem }.count }
    public var warnings: Int { findings.filter { $0.status == .warning }.count }
    /// 1 when anything is a problem; warnings alone leave it 0.
    public var exitStatus: Int32 { problems > 0 ? 1 : 0 }

    /// One line per finding (status, check, message, then what to do), and a last line counting them.
    public func textLines() -> [String] {
        let checkWidth = findings.map(\.check.count).max() ?? 0
        var lines = findings.map { finding in
            let status = finding.status.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
            let check = finding.check.padding(toLength: checkWidth, withPad: " ", startingAt: 0)
            let advice = finding.advice.map { "; \($0)" } ?? ""
            return TerminalText.sanitized("\(status)  \(check)  \(finding.message)\(advice)")
        }
        func count(_ number: Int, _ word: String) -> String { "\(number) \(word)\(number == 1 ? "" : "s")" }
        lines.append(problems == 0 && warnings == 0 ? "all is well"
            : "\(count(problems, "problem")), \(count(warnings, "warning"))")
        return lines
    }

    enum CodingKeys: String, CodingKey { case findings, clock, problems, warnings }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(findings, forKey: .findings)
        try container.encode(clock, forKey: .clock)
        try container.encode(problems, forKey: .problems)
        try container.encode(warnings, forKey: .warnings)
    }
}
