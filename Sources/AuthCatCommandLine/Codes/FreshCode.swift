import AuthCatCore
import AuthCatEssentials
import Foundation

/// A code about to be used somewhere else (typed into a login form, copied
/// from a pick): computed when it is asked for, and, when its time step ends
/// within `margin`, the next step's code is waited for and given instead,
/// with a note saying so, so that it is not stale by the time it is sent.
enum FreshCode {
    /// Long enough to press Enter on a typed code and for it to reach the server.
    static let margin: TimeInterval = 3

    static func generate(for account: Account, in vault: Vault, invocation: Invocation) throws -> GeneratedCode {
        if account.otp.kind != .hotp {
            let period = TimeInterval(account.otp.period)
            let left = period - invocation.now.timeIntervalSince1970.truncatingRemainder(dividingBy: period)
            if left < margin {
                invocation.output.note("waiting \(Int(left.rounded(.up)).counted("second")) for the next code")
                // A little past the boundary, so that the next code is the one computed.
                Thread.sleep(forTimeInterval: left + 0.05)
            }
        }
        return try vault.generateCode(for: account, at: invocation.now)
    }
}
