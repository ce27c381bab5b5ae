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
        let now = invocation.now
        guard account.otp.kind != .hotp else { return try vault.generateCode(for: account, at: now) }
        let period = TimeInterval(account.otp.period)
        let left = period - now.timeIntervalSince1970.truncatingRemainder(dividingBy: period)
        // A period no longer than the margin gains nothing from waiting.
        guard left < margin, period > margin else { return try vault.generateCode(for: account, at: now) }
        invocation.output.note("waiting \(Int(left.rounded(.up)).counted("second")) for the next code")
        Thread.sleep(forTimeInterval: left)
        // The next step's code, whatever the clock reads after the wait.
        return try vault.generateCode(for: account, at: now.addingTimeInterval(left))
    }
}
