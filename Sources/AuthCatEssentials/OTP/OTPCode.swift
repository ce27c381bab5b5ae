#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One generated code and, for time-based codes, the window in which it is valid.
public struct OTPCode: Equatable, Sendable {
    /// The digits (or Steam characters) to type in.
    public var value: String
    /// Start of the time step the code belongs to; `nil` for HOTP.
    public var validFrom: Date?
    /// End of the time step (exclusive), when the next code takes over; `nil` for HOTP.
    public var validUntil: Date?

    public init(value: String, validFrom: Date? = nil, validUntil: Date? = nil) {
        self.value = value
        self.validFrom = validFrom
        self.validUntil = validUntil
    }

    /// Whole seconds left before the code expires at `time`, rounded up; `nil` for HOTP.
    public func secondsRemaining(at time: Date) -> Int? {
        guard let validUntil else { return nil }
        let remaining = (validUntil.timeIntervalSince(time)).rounded(.up)
        return remaining.isFinite ? Int(max(0, min(remaining, Double(Int32.max)))) : nil
    }
}
