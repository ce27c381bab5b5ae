import AuthCatEssentials
import Foundation

/// One thing `authcat doctor` checked: how it stands, in one line, and what to do about it.
public struct DoctorFinding: Encodable, Equatable, Sendable {
    public enum Status: String, Encodable, Sendable {
        /// Nothing to do.
        case ok
        /// Worth fixing, but codes and secrets are not at risk; the exit status stays 0.
        case warning
        /// Codes may fail or secrets may leak; the exit status is 1.
        case problem
    }

    /// What was checked, in snake_case: `clock`, `permissions`, `passphrase_file`…
    public var check: String
    public var status: Status
    public var message: String
    /// What to do outside authcat (a `chmod`, a package to install), or nil.
    @NullWhenAbsent public var advice: String?
    /// What to do with authcat, for the command line to word, or nil.
    public var nextStep: NextStep?

    public init(
        _ check: String, _ status: Status, _ message: String, advice: String? = nil, next nextStep: NextStep? = nil
    ) {
        self.check = check
        self.status = status
        self.message = message
        self.advice = advice
        self.nextStep = nextStep
    }

    enum CodingKeys: String, CodingKey { case check, status, message, advice }
}
