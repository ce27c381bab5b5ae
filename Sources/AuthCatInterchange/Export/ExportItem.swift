import AuthCatCore
import AuthCatEssentials

/// An account with its secret, ready to be written out.
public struct ExportItem: Sendable {
    public var account: Account
    public var secret: SecretBytes
    /// The PIN of a Yandex or mOTP account.
    public var pin: SecretBytes?

    public init(account: Account, secret: SecretBytes, pin: SecretBytes? = nil) {
        self.account = account
        self.secret = secret
        self.pin = pin
    }

    /// Every live account of `vault` with its secret and PIN, in display order.
    public static func all(of vault: Vault) throws -> [ExportItem] {
        try vault.accounts().map { account in
            ExportItem(
                account: account, secret: try vault.secret(for: account.id),
                pin: account.otp.kind.needsPIN ? try vault.pin(for: account.id) : nil)
        }
    }
}
