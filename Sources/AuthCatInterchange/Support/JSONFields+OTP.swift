import AuthCatEssentials

/// The OTP parameters that JSON exports spell alike (andOTP, 2FAS, Aegis's
/// `info`), read by one rule: the same defaults, the same kinds, the same
/// algorithms, the same errors.
extension JSONFields {
    /// A TOTP, HOTP or Steam entry's parameters: the kind under `typeKey`
    /// (TOTP when absent), then `algorithm`, `digits`, `counter` and `period`,
    /// each with the usual default.
    func otpParameters(typeKey: String) throws -> OTPParameters {
        let kind: OTPKind
        switch try optionalString(typeKey)?.uppercased() ?? "TOTP" {
        case "TOTP": kind = .totp
        case "HOTP": kind = .hotp
        case "STEAM": kind = .steam
        case let other:
            throw EntryProblem.unsupportedType(other, thisFormatReads: "TOTP, HOTP and Steam")
        }
        return try otpParameters(kind: kind, algorithmKey: "algorithm")
    }

    /// The parameters of a `kind` that needs no PIN, with the algorithm under `algorithmKey`.
    func otpParameters(kind: OTPKind, algorithmKey: String) throws -> OTPParameters {
        var otp = OTPParameters(kind: kind, algorithm: try Self.algorithm(optionalString(algorithmKey)))
        if kind != .steam { otp.digits = try optionalInt("digits") ?? 6 }
        if kind == .hotp {
            otp.counter = try optionalCounter("counter") ?? 0
        } else {
            otp.period = try optionalInt("period") ?? 30
        }
        return otp
    }

    private static func algorithm(_ name: String?) throws -> OTPAlgorithm {
        switch name?.uppercased() {
        case nil, "SHA1": return .sha1
        case "SHA256": return .sha256
        case "SHA512": return .sha512
        // Aegis reads MD5 on a kind other than mOTP as its default, SHA1: an old bug let users choose it.
        case "MD5": return .sha1
        case let other?:
            throw EntryProblem.unsupported(
                "algorithm '\(EntryProblem.shown(other))' is not supported (only SHA1, SHA256 and SHA512)")
        }
    }
}
