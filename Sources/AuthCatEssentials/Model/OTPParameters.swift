/// How codes are made: HOTP (RFC 4226), TOTP (RFC 6238), Steam Guard,
/// Yandex (Yandex.Key) or mOTP (Mobile-OTP).
public enum OTPKind: String, Codable, CaseIterable, Sendable {
    case totp, hotp, steam, yandex, motp

    /// Yandex and mOTP codes mix a PIN the user chose into every code, so
    /// such accounts keep a PIN beside their secret.
    public var needsPIN: Bool { self == .yandex || self == .motp }

    /// The algorithm, digits and period every Yandex or mOTP account has:
    /// their apps offer no others, so neither does authcat. Nil for the kinds
    /// whose parameters the user chooses.
    public var fixedParameters: (algorithm: OTPAlgorithm, digits: Int, period: Int)? {
        switch self {
        case .yandex: (.sha256, 8, 30)
        case .motp: (.md5, 6, 10)
        case .totp, .hotp, .steam: nil
        }
    }
}

/// The hash function of an account: HMAC's for TOTP, HOTP, Steam and Yandex;
/// plain MD5 for mOTP, the only kind that uses `md5`.
public enum OTPAlgorithm: String, Codable, CaseIterable, Sendable {
    case sha1, sha256, sha512, md5
}

/// Everything about an account's codes except its secret (and PIN).
public struct OTPParameters: Codable, Equatable, Hashable, Sendable {
    public var kind: OTPKind
    public var algorithm: OTPAlgorithm
    /// 6 to 10 for TOTP and HOTP; always 5 for Steam, 8 for Yandex, 6 for mOTP.
    public var digits: Int
    /// Seconds per time step, 1 or more; ignored by HOTP; 30 for Yandex, 10 for mOTP.
    public var period: Int
    /// The next HOTP counter value to use; 0 for the others. At most `Int64.max` so SQLite can store it.
    public var counter: UInt64

    public static let digitRange = 6...10
    public static let steamDigits = 5
    public static let maximumCounter = UInt64(Int64.max)

    /// Parameters left out take the kind's default: SHA1, 6 digits and 30 s,
    /// or the fixed parameters of Steam, Yandex and mOTP.
    public init(
        kind: OTPKind = .totp, algorithm: OTPAlgorithm? = nil, digits: Int? = nil, period: Int? = nil,
        counter: UInt64 = 0
    ) {
        let fixed = kind.fixedParameters
        self.kind = kind
        self.algorithm = algorithm ?? fixed?.algorithm ?? .sha1
        self.digits = digits ?? fixed?.digits ?? (kind == .steam ? Self.steamDigits : 6)
        self.period = period ?? fixed?.period ?? 30
        self.counter = counter
    }

    /// Throws `OTPParameterError` naming the first parameter out of range.
    public func validate() throws {
        if let fixed = kind.fixedParameters {
            guard algorithm == fixed.algorithm, digits == fixed.digits, period == fixed.period else {
                throw OTPParameterError.fixed(kind)
            }
            return
        }
        guard algorithm != .md5 else { throw OTPParameterError.md5 }
        if kind == .steam {
            guard digits == Self.steamDigits else { throw OTPParameterError.digits(digits, steam: true) }
        } else {
            guard Self.digitRange.contains(digits) else { throw OTPParameterError.digits(digits, steam: false) }
        }
        guard period >= 1 else { throw OTPParameterError.period(period) }
        guard counter <= Self.maximumCounter else { throw OTPParameterError.counter }
    }
}
