import AuthCatEssentials
import Foundation

/// A code handed out for an account.
public struct GeneratedCode: Sendable {
    public var account: Account
    public var code: OTPCode
    /// The HOTP counter value this code was made from; nil for TOTP and Steam.
    public var counter: UInt64?
}

extension Vault {
    /// The code of `account` at `time`. For HOTP this hands out the stored
    /// counter and advances it in one write transaction, so no two processes
    /// can ever receive the same counter value.
    public func generateCode(for account: Account, at time: Date, author: HistoryAuthor = .cli) throws -> GeneratedCode
    {
        guard account.otp.kind == .hotp else {
            let secret = try secret(for: account.id)
            let pin = account.otp.kind.needsPIN ? try pin(for: account.id) : nil
            let code = try OTPGenerator.code(secret: secret, parameters: account.otp, at: time, pin: pin)
            return GeneratedCode(account: account, code: code, counter: nil)
        }
        return try write(author: author) { writer in
            let current = try writer.existingRecord(account.id)
            // Removed since it was looked up: no code, and no counter value used.
            guard current.account.deletedAt == nil else { throw VaultError.notFound(account.label) }
            let counter = current.account.otp.counter
            guard counter < OTPParameters.maximumCounter else {
                throw VaultStoreError.counterExhausted(current.account.label)
            }
            let secret = try openSecret(current.sealedSecret, for: account.id)
            let code = try OTPGenerator.code(secret: secret, parameters: current.account.otp, at: time)
            var next = current.account.otp
            next.counter = counter + 1
            let updated = try writer.update(account.id, AccountEdit(otp: next))
            return GeneratedCode(account: updated, code: code, counter: counter)
        }
    }
}
