import AuthCatCore

/// An account with its secret, ready to be written out.
public struct ExportItem: Sendable {
    public var account: Account
    public var secret: SecretBytes

    public init(account: Account, secret: SecretBytes) {
        self.account = account
        self.secret = secret
    }
}
