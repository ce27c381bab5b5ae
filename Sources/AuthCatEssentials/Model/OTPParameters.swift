/// How codes are made: HOTP (RFC 4226), TOTP (RFC 6238) or Steam Guard.
public enum OTPKind: String, Codable, CaseIterable, Sendable {
    case totp, hotp, steam
}

/// The HMAC hash function of an account.
public enum OTPAlgorithm: String, Codable, CaseIterable, Sendable {
    case sha1, sha256, sha512
}

/// Everything about an account's codes except its secret.
public struct OTPParameters: Codable, Equatable, Hashable, Sendable {
    public var kind: OTPKind
    public var algorithm: OTPAlgorithm
    /// 6 to 10 for TOTP and HOTP; always 5 for Steam.
    public var digits: Int
    /// Seconds per TOTP step, 1 or more; ignored by HOTP.
    public var period: Int
    /// The next HOTP counter value to use; 0 for TOTP. At most `Int64.max` so SQLite can store it.
    public var counter: UInt64

    public static let digitRange = 6...10
    public static let steamDigits = 5
    public static let maximumCounter = UInt64(Int64.max)

    public init(kind: OTPKind = .totp, algorithm: OTPAlgorithm = .sha1, digits: Int? = nil, period: Int = 30, counter: UInt64 = 0) {
        self.kind = kind
        self.algorithm = algorithm
        self.digits = digits ?? (kind == .steam ? Self.steamDigits : 6)
        self.period = period
        self.counter = counter
    }

    /// Throws `OTPParameterError` naming the first parameter out of range.
    public func validate() throws {
        if kind == .steam {
            guard digits == Self.steamDigits else { throw OTPParameterError.digits(digits, steam: true) }
        } else {
            guard Self.digitRange.contains(digits) else { throw OTPParameterError.digits(digits, steam: false) }
        }
        guard period >= 1 else { throw OTPParameterError.period(period) }
        guard counter <= Self.maximumCounter else { throw OTPParameterError.counter }
    }
}

public enum OTPParameterError: UserFacingError, Equatable {
    case digits(Int, steam: Bool)
    case period(Int)
    case counter

    public var description: String {
        switch self {
        case .digits(let n, let steam):
            steam ? "steam codes have 5 characters, not \(n)" : "digits must be between 6 and 10, not \(n)"
        case .period(let p): "period must be at least 1 second, not \(p)"
        case .counter: "counter must be between 0 and \(OTPParameters.maximumCounter)"
        }
    }
}
