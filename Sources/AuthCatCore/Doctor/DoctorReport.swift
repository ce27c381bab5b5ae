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

    enum CodingKeys: String, CodingKey { case findings, clock, problems, warnings }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(findings, forKey: .findings)
        try container.encode(clock, forKey: .clock)
        try container.encode(problems, forKey: .problems)
        try container.encode(warnings, forKey: .warnings)
    }
}
