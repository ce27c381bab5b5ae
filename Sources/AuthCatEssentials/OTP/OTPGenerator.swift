#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Makes HOTP (RFC 4226), TOTP (RFC 6238), Steam Guard, Yandex and mOTP codes.
///
/// Every function checks its parameters and throws `OTPParameterError`
/// rather than trap or make a code the issuer would not accept. A code costs
/// one HMAC and a few small allocations, so listing a thousand accounts is cheap.
public enum OTPGenerator {
    /// The characters of a Steam Guard code.
    public static let steamAlphabet = "23456789BCDFGHJKMNPQRTVWXY"

    /// The code of an account at `time`.
    ///
    /// Time-based codes depend on `time` and come with their validity
    /// window; HOTP codes use `parameters.counter` and ignore `time` (the
    /// caller advances the counter). Yandex and mOTP codes also need `pin`.
    /// - Throws: `OTPParameterError` when `parameters.validate()` does, or
    ///   `.missingPIN` when a Yandex or mOTP code is asked for without a PIN.
    public static func code(
        secret: SecretBytes, parameters: OTPParameters, at time: Date, pin: SecretBytes? = nil
    ) throws -> OTPCode {
        try parameters.validate()
        if parameters.kind.needsPIN {
            guard let pin else { throw OTPParameterError.missingPIN(parameters.kind) }
            let step = timeStep(at: time, period: parameters.period)
            let text =
                parameters.kind == .yandex
                ? try yandex(secret: secret, pin: pin, step: step)
                : motp(secret: secret, pin: pin, step: step, digits: parameters.digits)
            return timed(text, step: step, period: parameters.period)
        }
        switch parameters.kind {
        case .hotp:
            let value = truncatedHMAC(secret: secret, counter: parameters.counter, algorithm: parameters.algorithm)
            return OTPCode(value: decimal(value, digits: parameters.digits))
        case .totp, .steam:
            let step = timeStep(at: time, period: parameters.period)
            let value = truncatedHMAC(
                secret: secret, counter: UInt64(bitPattern: step), algorithm: parameters.algorithm)
            let text = parameters.kind == .steam ? steam(value) : decimal(value, digits: parameters.digits)
            return timed(text, step: step, period: parameters.period)
        case .yandex, .motp:
            // Answered above: these kinds need their PIN.
            throw OTPParameterError.missingPIN(parameters.kind)
        }
    }

    /// A time-based code with the window of its step.
    private static func timed(_ text: String, step: Int64, period: Int) -> OTPCode {
        // In Double so that steps near Int64's limits cannot overflow.
        let start = Double(step) * Double(period)
        return OTPCode(
            value: text, validFrom: Date(timeIntervalSince1970: start),
            validUntil: Date(timeIntervalSince1970: start + Double(period)))
    }

    /// The HOTP code for `counter` (RFC 4226).
    /// - Throws: `OTPParameterError.digits` unless `digits` is in 6...10, `.md5` for MD5.
    public static func hotp(
        secret: SecretBytes, counter: UInt64, algorithm: OTPAlgorithm = .sha1, digits: Int = 6
    ) throws -> String {
        try checkHMAC(algorithm)
        try checkDigits(digits)
        return decimal(truncatedHMAC(secret: secret, counter: counter, algorithm: algorithm), digits: digits)
    }

    /// The TOTP code at `time` (RFC 6238, T0 = 0).
    /// - Throws: `OTPParameterError` unless `digits` is in 6...10 and `period` is at least 1.
    public static func totp(
        secret: SecretBytes, time: Date, period: Int = 30, algorithm: OTPAlgorithm = .sha1,
        digits: Int = 6
    ) throws -> String {
        try checkHMAC(algorithm)
        try checkDigits(digits)
        try checkPeriod(period)
        let counter = UInt64(bitPattern: timeStep(at: time, period: period))
        return decimal(truncatedHMAC(secret: secret, counter: counter, algorithm: algorithm), digits: digits)
    }

    /// The Steam Guard code at `time`: TOTP's truncated HMAC written as five
    /// characters of `steamAlphabet`, least significant first.
    /// - Throws: `OTPParameterError.period` unless `period` is at least 1.
    public static func steam(
        secret: SecretBytes, time: Date, period: Int = 30, algorithm: OTPAlgorithm = .sha1
    ) throws -> String {
        try checkHMAC(algorithm)
        try checkPeriod(period)
        let counter = UInt64(bitPattern: timeStep(at: time, period: period))
        return steam(truncatedHMAC(secret: secret, counter: counter, algorithm: algorithm))
    }

    /// The RFC 6238 time step of `time`: seconds since 1970 divided by
    /// `period`, rounded down, so times before 1970 give negative steps
    /// (the HMAC counter is then their two's complement bit pattern).
    ///
    /// Times beyond what an `Int64` holds are clamped rather than trapping;
    /// such clocks are broken, and a wrong code beats a crash. A `period`
    /// below 1 counts as 1 for the same reason.
    public static func timeStep(at time: Date, period: Int) -> Int64 {
        let seconds = time.timeIntervalSince1970.rounded(.down)
        let whole: Int64
        // 2^63 is exactly representable as a Double; Int64(2^63) would trap.
        if seconds.isNaN {
            whole = 0
        } else if seconds >= 9_223_372_036_854_775_808.0 {
            whole = .max
        } else if seconds <= -9_223_372_036_854_775_808.0 {
            whole = .min
        } else {
            whole = Int64(seconds)
        }
        let divisor = Int64(clamping: max(period, 1))
        let quotient = whole / divisor
        // Swift's `/` truncates toward zero; step back for negative remainders.
        return whole % divisor < 0 ? quotient - 1 : quotient
    }

    private static func checkHMAC(_ algorithm: OTPAlgorithm) throws {
        guard algorithm != .md5 else { throw OTPParameterError.md5 }
    }

    private static func checkDigits(_ digits: Int) throws {
        guard OTPParameters.digitRange.contains(digits) else { throw OTPParameterError.digits(digits, steam: false) }
    }

    private static func checkPeriod(_ period: Int) throws {
        guard period >= 1 else { throw OTPParameterError.period(period) }
    }
}

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
