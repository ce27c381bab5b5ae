#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One code as a person reads it on a terminal: the code, the account's
/// label and how long the code stays valid. Shared by `authcat-cli` and the
/// quick front `authcat`, so both print the same line.
public enum CodeRow {
    /// The cells of the row; `code` is nil for an HOTP account listed without using up a counter value.
    public static func cells(_ account: Account, _ code: OTPCode?, at now: Date) -> [String] {
        let status: String
        if let seconds = code?.secondsRemaining(at: now) {
            status = "\(seconds)s left"
        } else if account.otp.kind == .hotp {
            status = code == nil ? "hotp: ask by name" : "hotp"
        } else {
            status = ""
        }
        return [code?.value ?? "-", account.label, status]
    }
}
