import AuthCatCore
import AuthCatEssentials

/// An account's code settings without the HOTP counter, merged as one field
/// so that two devices' edits never combine into an invalid setting (a Steam
/// account with 8 digits, say). The counter merges on its own, as a maximum.
struct SyncedOTPSettings: Codable, Equatable {
    var kind: OTPKind
    var algorithm: OTPAlgorithm
    var digits: Int
    var period: Int

    init(_ otp: OTPParameters) {
        kind = otp.kind
        algorithm = otp.algorithm
        digits = otp.digits
        period = otp.period
    }

    func parameters(counter: UInt64) -> OTPParameters {
        OTPParameters(kind: kind, algorithm: algorithm, digits: digits, period: period, counter: counter)
    }
}
